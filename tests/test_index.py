"""Index stage: Lark parse → IR → terms / sympy, and the warp simulator against brute force."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cudalint.index import ir
from cudalint.index.parse import ExprSyntaxError, parse_expr
from cudalint.index.terms import decompose
from cudalint.index.to_sympy import to_sympy
from cudalint.preprocess.macros import MacroTable, parse_define

TX, TY = ir.Sym("threadIdx.x", "thread"), ir.Sym("threadIdx.y", "thread")
BX, BY = ir.Sym("blockIdx.x", "block"), ir.Sym("blockIdx.y", "block")


def resolve(e, env):
    """Substitute names (what the model stage does through the def-use walk)."""
    match e:
        case ir.Name(name=n):
            return env[n]
        case ir.Member(base=ir.Name(name=b), field=f):
            return env[f"{b}.{f}"]
        case ir.Bin(op=op, left=l, right=r):
            return ir.Bin(op, resolve(l, env), resolve(r, env))
    return e


def test_seed_store_index_decomposes_into_table_terms():
    # cCol = blockIdx.x * TILE_SIZE + threadIdx.x * WPT + regCol   (TILE_SIZE=32, WPT=4)
    macros = MacroTable()
    for d in ("#define TILE_SIZE 32", "#define WPT 4"):
        macros.define(parse_define(d))
    e = parse_expr(macros.expand("blockIdx.x * TILE_SIZE + threadIdx.x * WPT + regCol"))
    env = {"blockIdx.x": BX, "threadIdx.x": TX, "regCol": ir.Sym("regCol", "iter")}
    terms = decompose(resolve(e, env))
    assert [(str(t.coord), str(t.stride)) for t in terms] == [
        ("blockIdx.x", "32"), ("threadIdx.x", "4"), ("regCol", "1")]


def test_function_like_macro_expands_inside_index():
    macros = MacroTable()
    macros.define(parse_define("#define IDX2C(i,j,ld) (((j)*(ld))+(i))"))
    e = parse_expr(macros.expand("a[IDX2C(row, col, lda)]"))
    assert isinstance(e, ir.Subscript)
    assert str(e.index) == "col * lda + row"


def test_parse_builds_typed_nodes_and_never_evaluates():
    e = parse_expr("reinterpret_cast<const float4*>(&A[r * K + c * 4])[0]")
    assert isinstance(e, ir.Subscript) and isinstance(e.base, ir.Cast)
    assert e.base.type == ir.TypeRef("float4", 1)
    with pytest.raises(ExprSyntaxError):
        parse_expr("__import__('os').system('true') {")
    e = parse_expr("__import__('os')")      # a call node, nothing run
    assert isinstance(e, ir.Call) and e.fn == "__import__"


def test_sympy_conversion_agrees_with_term_decomposition():
    import sympy
    e = parse_expr("(blockIdx.y * 32 + threadIdx.y) * N + blockIdx.x * 32 + threadIdx.x")
    env = {"blockIdx.y": BY, "threadIdx.y": TY, "blockIdx.x": BX, "threadIdx.x": TX, "N": ir.Sym("N", "param")}
    r = resolve(e, env)
    syms = {}
    s = sympy.expand(to_sympy(r, syms))
    for t in decompose(r):
        assert sympy.expand(s.coeff(syms[t.coord.name])) == sympy.expand(to_sympy(t.stride, syms))


def _brute_sectors(index_fn, bx, by, es):
    """Sectors per warp request by direct enumeration of lanes (x fastest)."""
    out = []
    for w in range(bx * by // 32):
        secs, addrs = set(), set()
        for lane in range(32):
            lin = w * 32 + lane
            x, y = lin % bx, lin // bx
            a = index_fn(x, y) * es
            addrs.add(a)
            secs.add(a // 32)
            secs.add((a + es - 1) // 32)
        ideal = -(-len(addrs) * es // 32)
        lo, hi = min(addrs), max(addrs)
        if es * 32 < 128 and hi - lo + es == len(addrs) * es:
            # narrow elements in one contiguous run: the sectors the run spans, wherever it starts
            ideal = max(ideal, (hi + es - 1) // 32 - lo // 32 + 1)
        out.append((len(secs), ideal))
    return np.mean([s for s, _ in out]), np.mean([i for _, i in out])


@settings(max_examples=60, deadline=None)
@given(sx=st.integers(0, 40), sy=st.integers(0, 40), off=st.integers(0, 7),
       shape=st.sampled_from([(32, 1), (32, 8), (16, 16), (8, 8), (64, 4), (4, 32)]),
       es=st.sampled_from([1, 2, 4, 8, 16]))
def test_simulated_sectors_equal_brute_force(sx, sy, off, shape, es, tmp_path_factory):
    from cudalint.lint import Config, lint_paths
    from cudalint.analysis.simulate import Simulation
    bx, by = shape
    ctype = {1: "char", 2: "short", 4: "float", 8: "double", 16: "float4"}[es]
    d = tmp_path_factory.mktemp("k")
    f = d / "k.cu"
    f.write_text(f"__global__ void k({ctype}* a) {{\n"
                 f"  int i = threadIdx.x * {sx} + threadIdx.y * {sy} + {off};\n"
                 f"  {ctype} v = a[i];\n}}\n"
                 f"void run({ctype}* a) {{ dim3 b({bx}, {by}); k<<<1, b>>>(a); }}\n")
    (table,) = lint_paths([str(f)], Config(debug=True)).tables
    c = Simulation(table).result(table.accesses[0]).coalescing
    sectors, ideal = _brute_sectors(lambda x, y: x * sx + y * sy + off, bx, by, es)
    assert c.sectors_per_request == pytest.approx(sectors)
    assert c.ideal_sectors == pytest.approx(ideal)


def test_the_fast_loop_reads_as_lark_s_own_loop_does():
    """_FastParser builds the IR in a loop of its own over lark's tables; lark's loop and _to_ir read
    the texts it leaves. Together these texts reduce by every rule of index.lark."""
    from cudalint.index import parse
    fast, lark = parse._fast_parser(), parse._parser("index.lark")
    assert fast is not None

    def spans(e):
        return [(type(n).__name__, n.span) for n in e.walk() if isinstance(n, (ir.Subscript, ir.Deref))]

    for text in ("a[(i + 1) * n] = *(p + 2) + (+q)[2] - f() * g(x, (float)y, -3)->w.v++",
                 "s::t ? sizeof(unsigned int *) + sizeof x : ~c, !d && e || --f | g ^ h & (i != j) <= k << 1",
                 "static_cast<const float *>(z)[0] += int(a) + float() + h{} + m{1, 'c'} + &u - \"s\" / 0x10u % 1.5f",
                 "(const volatile int)a + (const int const *)b + (const int volatile)c + (int const *)d"
                 " + (float volatile)e + (float **)f",
                 "*(+(p))[1] + (*q)[2] + ((r))[3](s)[4] + *+*t"):
        got, want = fast.read(text), parse._to_ir(lark.parse(text))
        assert got == want and spans(got) == spans(want), text
    # a node spans its parentheses and unary plus, as lark's propagated positions do
    assert spans(parse_expr("x = (a+b)[i*2] + *q")) == [("Subscript", (4, 14)), ("Deref", (17, 19))]
    assert parse_expr("f<32>(x) + g(y)").left.targs == ("32",)
    # lark's loop says what is wrong, and _to_ir's recursion whether a text is nested too deeply
    for text in ("a +", "a[", "08", "0x1" + "0" * 20, "a[" * 150 + "0" + "]" * 150):
        assert fast.read(text) is None
    with pytest.raises(ExprSyntaxError, match="Unexpected token"):
        parse_expr("a + )")


@pytest.mark.parametrize("text, name, bits", [
    ("(long long)blockIdx.x * n", "long long", 64),
    ("(unsigned long long int *)p", "unsigned long long", 64),
    ("(long int)i", "long", 64),
    ("(unsigned)i", "unsigned", 32),
    ("(signed)i", "int", 32),
    ("static_cast<long long>(i) * n", "long long", 64),
    ("(unsigned short int)i", "unsigned short", 32),
    ("(const unsigned int)i", "unsigned", 32),
])
def test_casts_spelled_with_several_type_words_are_read(text, name, bits):
    """`(long long)row * n` (the usual way to widen an index) and the other spellings C allows with
    several words, or with `unsigned` alone, are casts to the type the model names."""
    from cudalint.index.evaluate import ctype_of_name
    casts = [n for n in parse_expr(text).walk() if isinstance(n, ir.Cast)]
    assert len(casts) == 1 and casts[0].type.name == name
    assert ctype_of_name(name).endswith(str(bits))


def test_a_parenthesised_name_is_still_an_expression_and_not_a_cast():
    assert parse_expr("(n) * 2") == ir.Bin("*", ir.Name("n"), ir.Num(2))
    with pytest.raises(ExprSyntaxError):
        parse_expr("(const)i")


def test_an_index_widened_with_long_long_is_analysed(tmp_path):
    from cudalint.lint import Config, lint_paths
    (tmp_path / "k.cu").write_text(
        "__global__ void k(const float* a, float* b, int n) {\n"
        "  long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  b[row * n] = a[row];\n"
        "}\n"
        "void run(const float* a, float* b, int n) { k<<<(n + 255) / 256, 256>>>(a, b, n); }\n")
    found = lint_paths([str(tmp_path / "k.cu")], Config()).diagnostics
    # analysed: the column walk, and the tail nothing guards when n is no multiple of the block
    assert sorted({(d.code, d.line) for d in found if d.severity != "info"}) == [("CL101", 3), ("CL202", 3)]
    assert not any("cannot read" in d.message or "not simulated" in d.message for d in found)


@pytest.mark.parametrize("index, shown", [
    ("(threadIdx.x >> 1) * n", "(threadIdx.x >> 1) * n"),
    ("(threadIdx.x & 3) * n", "(threadIdx.x & 3) * n"),
    ("threadIdx.x / 32 * n", "threadIdx.x / 32 * n"),
    ("(threadIdx.x ^ 1) * n", "(threadIdx.x ^ 1) * n"),
    ("threadIdx.x * (n / 2)", "threadIdx.x * (n / 2)"),
])
def test_a_term_reads_as_the_c_it_stands_for(index, shown):
    """The term a finding names (`from ...` in CL401, the lane term of CL101) is printed so that C
    reads it as the term: a shift or a mask times a stride keeps its parentheses."""
    env = {"threadIdx.x": ir.Sym("threadIdx.x", "thread", "unsigned"), "n": ir.Sym("n", "param", "int")}
    terms = [t for t in decompose(resolve(parse_expr(index), env)) if not t.is_offset]
    assert [str(t) for t in terms] == [shown]
    again = decompose(resolve(parse_expr(str(terms[0])), env))
    assert [str(t) for t in again if not t.is_offset] == [shown]


@pytest.mark.parametrize("text, spans", [
    ("b[threadIdx.x - half] += b[threadIdx.x]", [(0, 21), (25, 39)]),
    ("x[half * 2] = y[half + 1]", [(0, 11), (14, 25)]),
])
def test_a_type_name_used_as_a_variable_keeps_the_spans_exact(text, spans):
    # `int half = n / 2;`: read as a variable, the subscripts still stand where the text has them
    assert sorted(n.span for n in parse_expr(text).walk() if isinstance(n, ir.Subscript)) == spans


def test_conditions_of_plain_python_values_evaluate():
    """An environment of plain Python numbers (a caller's `{"n": 4}`) evaluates `&&`, `||` and
    comparisons as numpy columns do: a kernel whose guard joins two such tests was a CL902."""
    from cudalint.index import ir
    from cudalint.index.evaluate import Evaluator
    n, k = ir.Sym("n", "param"), ir.Sym("k", "param")
    both = ir.Bin("&&", ir.Bin("<", n, ir.Num(8)), ir.Bin(">", k, ir.Num(0)))
    assert int(Evaluator({"n": 4, "k": True}).value(both)) == 1
    assert int(Evaluator({"n": 9, "k": 1}).value(ir.Bin("||", ir.Bin("<", n, ir.Num(8)), ir.Bin("<", n, k)))) == 0
    assert int(Evaluator({"n": 3, "k": 5}).value(ir.Bin("<", n, k))) == 1
    # two template flags tried at 1 and 1000: `kDoZeroPadding && kDoExpand`
    assert int(Evaluator({"n": 1, "k": 1000}).value(ir.Bin("&&", n, k))) == 1
    assert int(Evaluator({"n": 0, "k": 0}).value(ir.Bin("||", n, k))) == 0


def test_sizeof_of_a_class_template_instance_is_a_type_s_size():
    """`sizeof(Array<T, N>) == sizeof(uint2)` reads as the size of a type against 8, not as
    `Array < T` compared with `N > ...` (a statement that did not parse, and was not read)."""
    from cudalint.index import ir
    from cudalint.index.parse import parse_expr
    got = parse_expr("sizeof(Array<T, N>) == sizeof(uint2)")
    assert got == ir.Bin("==", ir.Call("sizeof", (ir.Str("Array<T, N>"),)), ir.Num(8))
    assert parse_expr("a < b && sizeof(x) > 2").left == ir.Bin("<", ir.Name("a"), ir.Name("b"))
