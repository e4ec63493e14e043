"""JUnit XML for CI test-report views: one testsuite per file, one testcase per diagnostic (a
failure; notes pass with their text as output), one passing testcase for a clean file."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from .concise import line
from .style import Style


def render(result, opts) -> str:
    by_path: dict[str, list] = {f["path"]: [] for f in result.files}
    for d in result.diagnostics:
        by_path.setdefault(d.path, []).append(d)
    root = ET.Element("testsuites", name="cudalint")
    total = failures = 0
    for path, diags in by_path.items():
        suite = ET.SubElement(root, "testsuite", name=path)
        nfail = 0
        for d in diags:
            case = ET.SubElement(suite, "testcase", name=f"{d.code} {d.name} at {d.line}:{d.column}",
                                 classname=path, file=path, line=str(d.line))
            text = line(d, Style(False))
            if d.severity == "info":
                ET.SubElement(case, "system-out").text = text
            else:
                nfail += 1
                ET.SubElement(case, "failure", message=d.message, type=d.code).text = text
        if not diags:
            ET.SubElement(suite, "testcase", name="no findings", classname=path, file=path)
        n = max(len(diags), 1)
        suite.set("tests", str(n))
        suite.set("failures", str(nfail))
        total += n
        failures += nfail
    root.set("tests", str(total))
    root.set("failures", str(failures))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
