"""The shortcuts that read source files and build each kernel's two-tree table give the answers of
the long way.

No test here is timed: each states what a shortcut must agree with and fails where it does not.
"""
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from cudalint.index import ir
from cudalint.preprocess import macros

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

# C-ish text: every kind of token the macro tokenizer tells apart, and what lies between them
_C_TEXT = st.lists(st.sampled_from(list("aZ_09.eE+-*/%<>=!&|^~?:;,#()[]{}'\"\\ \t\n") + ["->", "##", "0x1f", "é"]),
                   max_size=40).map("".join)


def _sample_lines() -> list[str]:
    return [line for p in sorted(SAMPLES.glob("*.cu")) for line in p.read_text().splitlines()]


# ---- preprocess/macros.py -----------------------------------------------------------------------
# The tokenizer as it was written first: one named group per kind of token, a match object per token.
_NAMED_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|[eE][+-])*)
  | (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<op>\#\#|\#|->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|::|.)
""", re.VERBOSE | re.DOTALL)


def _tokens_the_long_way(text: str) -> list[str]:
    return [m.group(0) for m in _NAMED_TOKEN.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(_C_TEXT)
def test_macro_tokens_are_those_of_the_named_group_tokenizer(text):
    assert macros.tokenize(text) == _tokens_the_long_way(text)


def test_macro_tokens_of_every_sample_line_are_those_of_the_named_group_tokenizer():
    lines = _sample_lines()
    assert lines
    for line in lines:
        assert macros.tokenize(line) == _tokens_the_long_way(line), line


# ---- source/cufile.py ----------------------------------------------------------------------------
def _structure(src) -> dict:
    """What the walk of a file finds, as plain values."""
    return {
        "functions": [(f.name, f.line, f.is_kernel, f.is_device, [(p.name, p.type_name, p.pointers) for p in f.params],
                       [(t.name, t.is_type, t.default) for t in f.template_params], f.launch_bounds,
                       [(a.line, a.kind, a.grid, a.block, a.params) for a in f.annotations]) for f in src.functions],
        "launches": [(s.kernel, s.template_args, s.config, s.args, s.host.name if s.host else None, s.line)
                     for s in src.launches],
        "constants": [(k, c.text, c.line) for k, c in src.constants.items()],
        "typedefs": dict(src.typedefs),
        "prototypes": sorted(src.prototypes),
        "annotations": {k: (a.kind, a.grid, a.block, a.params) for k, a in src.annotations.items()},
        "problems": [(p.line, p.message) for p in src.problems + src.annotation_errors],
    }


def _walked_whole(monkeypatch, path: str, text: str) -> dict:
    """The structure found by walking every node (no statement or expression skipped as plain)."""
    from cudalint.source import cufile
    with monkeypatch.context() as m:
        m.setattr(cufile, "_PLAIN", frozenset())
        return _structure(cufile.SourceFile(path, text))


_CORNERS = """
typedef float real;
namespace ns { const int TILE = 16; struct Packed { static constexpr int size = 4; }; }
__global__ void k(float* a, int n);
__global__ void k(float* a, int n) {
    const int W = 8;
    if (const int z = 3) { a[0] = z; }
    for (int i = 0; i < ([&] { const int INNER = 2; return INNER; })(); i++) a[i] = W;
    a[n > 0 ? ([] { enum { E = 5 }; return E; })() : 0] = 1;
    auto f = [](int x /* cudalint: param n=64 */) { typedef int idx; return x; };
}
void host(float* d, int n) {
    int g = (n + 255) / 256;
    k<<<g, 256>>>(d, n);
    (void)(k<<<1, 32>>>(d, n), 0);
    launch(g, [&] { k<<<1, 64>>>(d, n); });
    int r = f(n, /* cudalint: launch grid=1 block=32 */ 0);
    CUDA_LOOP(i, n) { d[i] = 0; }
}
"""


def test_the_file_walk_finds_what_walking_every_node_finds(monkeypatch):
    from cudalint.source.cufile import SourceFile
    cases = [(str(p), p.read_text()) for p in sorted(SAMPLES.glob("*.cu"))] + [("corners.cu", _CORNERS)]
    for path, text in cases:
        assert _structure(SourceFile(path, text)) == _walked_whole(monkeypatch, path, text), path
    corners = _structure(SourceFile("corners.cu", _CORNERS))
    constants = {c[0] for c in corners["constants"]}
    # a function's (or a lambda's) local is no constant of the file
    assert len(corners["launches"]) == 3 and not {"W", "INNER"} & constants and "ns::TILE" in constants
    assert 17 in corners["annotations"]


# ---- model/pointers.py -----------------------------------------------------------------------------
_POINTERS = """
__global__ void copy(float* a) {}
__global__ void scale(float* a) {}
typedef void (*kernel_t)(float*);
kernel_t chosen = &copy;
kernel_t table[2] = {&copy, scale};
void pick(int k, float* d) {
    void (*fn)(float*) = k ? &copy : &scale;
    kernel_t other;
    if (k > 1) { other = fn; } else { other = table[k]; }
    switch (k) { case 0: chosen = (kernel_t)&scale; break; }
    fn<<<1, 32>>>(d);
    other<<<1, 32>>>(d);
    table[k]<<<1, 32>>>(d);
    (*chosen)<<<1, 32>>>(d);
    auto g = [&](kernel_t h) { h = fn; return h; };
}
"""


def _spans(nodes):
    return None if nodes is None else [(n.start_byte, n.end_byte) for n in nodes]


def test_the_values_of_a_pointer_found_under_its_name_are_those_of_a_walk_of_every_node():
    from cudalint.model import pointers
    from cudalint.source.cufile import SourceFile
    cases = [(str(p), p.read_text()) for p in sorted(SAMPLES.glob("*.cu"))] + [("pointers.cu", _POINTERS)]
    for path, text in cases:
        src = SourceFile(path, text)
        scopes = [src.tree.root_node] + [f.node for f in src.functions]
        for var in sorted(set(re.findall(r"[A-Za-z_]\w*", text))):
            for scope in scopes:
                assert _spans(pointers._values(scope, var)) == _spans(pointers._values(scope, var, prune=False)), \
                    (path, var)
    src = SourceFile("pointers.cu", _POINTERS)
    assert len(src.launches) == 4 and all(pointers.pointer_launch(s).targets for s in src.launches)


# ---- index/parse.py --------------------------------------------------------------------------------
def _lark_reads(text: str):
    """The IR by lark's own loop and _to_ir (the long way), or None where it raises."""
    from lark.exceptions import LarkError
    from cudalint.index import parse
    try:
        return parse._to_ir(parse._parser("index.lark").parse(text))
    except (LarkError, RecursionError):
        return None


def _access_spans(e):
    return [(type(n).__name__, n.span) for n in e.walk() if isinstance(n, (ir.Subscript, ir.Deref))]


_ATOMS = st.sampled_from(["a", "n", "threadIdx.x", "blockIdx.y * BM", "p[i]", "*q", "f(x, y)", "sizeof(int)",
                          "(unsigned long long)k", "(long long)k", "32", "0x1fu", "1.5f", "sizeof x", "s::t",
                          "static_cast<float *>(v)[0]", "i++", "--j", "-k", "!c", "~m", "&r[1]", "'c'", "\"s\""])
_OPS = st.sampled_from(["+", "-", "*", "/", "%", "<<", ">>", "<", "<=", "==", "!=", "&", "^", "|", "&&", "||",
                        "=", "+=", ",", "?"])
_SPACE = st.text(alphabet=st.sampled_from(list(" \t\n\r\f")), max_size=3)


@st.composite
def _expressions(draw):
    parts = [draw(_SPACE), draw(_ATOMS)]
    for _ in range(draw(st.integers(0, 6))):
        op = draw(_OPS)
        parts += [draw(_SPACE), op if op != "?" else "? b :", draw(_SPACE), draw(_ATOMS)]
    text = "".join(parts) + draw(_SPACE)
    return f"({text})[k]" if draw(st.booleans()) else text


@settings(max_examples=300, deadline=None)
@given(_expressions())
def test_the_fast_parser_reads_spaced_expressions_as_lark_s_loop_does(text):
    from cudalint.index import parse
    got, want = parse._fast_parser().read(text), _lark_reads(text)
    assert got == want and (got is None or _access_spans(got) == _access_spans(want)), text


def test_white_space_passed_over_is_what_every_lexer_state_met_would_drop():
    """_read passes over white space without asking the lexer: in every state of the parser the
    lexer matches it as a token it ignores, and the words it turns into keywords are lark's."""
    from cudalint.index import parse
    fast = parse._fast_parser()
    assert fast._space == frozenset(" \t\n\r\f")
    for line in _sample_lines():
        fast.read(line.strip().rstrip(";{"))
    assert len(fast._lexers) > 20
    for state, (match, keywords, ignore) in fast._lexers.items():
        for c in fast._space:
            m = match(c + c + "x", 0)
            assert m is not None and m.lastgroup in ignore and m.end() == 2
        for terminal, words in keywords.items():
            for word, symbol in words.items():
                assert symbol == (fast._lexers._lark[state].callback[terminal].scanner.fullmatch(word) or terminal)


# ---- preprocess ----------------------------------------------------------------------------------
_DIRECTIVE_TEXT = st.lists(st.sampled_from(list("#define X(a) a*/\"'\\\n\t ") + ["//", "/*", "*/", "\\\"", "'/'"]),
                           max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(_DIRECTIVE_TEXT)
def test_a_directive_without_comment_marks_is_its_own_text_as_the_character_loop_reads_it(text):
    from cudalint import preprocess
    assert preprocess._strip_comments(text) == preprocess._take_out_comments(text)


def test_every_sample_line_strips_as_the_character_loop_strips_it():
    from cudalint import preprocess
    for line in _sample_lines():
        assert preprocess._strip_comments(line) == preprocess._take_out_comments(line), line
