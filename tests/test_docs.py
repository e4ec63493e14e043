"""The documentation says what the tree holds: generated pages are current, links lead somewhere,
and the sample counts the READMEs state are the samples there are."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gendocs  # noqa: E402


def test_generated_pages_match_their_sources():
    """docs/rules/ from the rules' docstrings, samples/README.md's table from the samples."""
    stale = gendocs.stale()
    assert not stale, f"out of date: {', '.join(stale)}; run `python tools/gendocs.py --write`"


def test_a_changed_docstring_makes_its_page_stale(monkeypatch):
    from cudalint.rules import cl101_uncoalesced as rule
    monkeypatch.setattr(rule, "__doc__", rule.__doc__ + "\nOne more line.\n")
    assert gendocs.stale() == ["docs/rules/CL101.md"]


def test_every_rule_has_a_page_and_each_page_is_what_cudalint_rule_prints():
    from cudalint.rules import ALL
    pages = {p.stem for p in gendocs.RULES_DIR.glob("CL*.md")}
    assert pages == {r.CODE for r in ALL}
    for r in ALL:
        assert r.__doc__.strip() in (gendocs.RULES_DIR / f"{r.CODE}.md").read_text()


def test_the_samples_table_lists_every_sample_once():
    text = gendocs.SAMPLES_README.read_text()
    listed = re.findall(r"^\| \[`([^`]+)`\]", text, re.M)
    assert sorted(listed) == [p.relative_to(gendocs.SAMPLES).as_posix() for p in gendocs.sample_files()]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _markdown_files():
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "samples" / "README.md",
            *sorted((ROOT / "docs").rglob("*.md"))]


def test_relative_links_and_anchors_resolve():
    broken = []
    for md in _markdown_files():
        text = re.sub(r"```.*?```", "", md.read_text(), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (md.parent / path).resolve() if path else md
            if not dest.exists():
                broken.append(f"{md.relative_to(ROOT)}: {target}")
            elif anchor and dest.suffix == ".md":
                heads = re.findall(r"^#+ (.*)$", re.sub(r"```.*?```", "", dest.read_text(), flags=re.S), re.M)
                if anchor not in {_slug(h) for h in heads}:
                    broken.append(f"{md.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_sample_counts_stated_in_the_readmes_are_the_samples_there_are():
    count = len(gendocs.sample_files())
    stated = []
    for md in (ROOT / "README.md", ROOT / "samples" / "README.md"):
        text = md.read_text()
        stated += [(md.name, int(n)) for n in re.findall(
            r"\b(\d+) (?:learning kernels|samples|sample files|kernels? files)\b", text)]
        stated += [(md.name, int(n)) for n in re.findall(r"samples/? \((\d+) files", text)]
    assert all(n == count for _, n in stated), f"{count} sample files, the READMEs say {stated}"
