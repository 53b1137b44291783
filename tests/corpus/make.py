"""Write the DSL corpus: nasty inputs of up to about 10 KB, each named
ok-*.tree (must parse) or err-*.tree (must be refused with a DSLError).
tests/dsl/test_fuzz_dsl.py replays every file.  Run from the repository root:

    .venv/bin/python tests/corpus/make.py tests/corpus

Without an argument it only prints how long each case takes to parse.
Files found by the fuzzers are added by hand next to these.
"""
import os, time, sys
import pyab
K = 10_000
cases = {}
def add(name, text): cases[name] = text
# deep nesting, valid
n = K // 6
add("ok-deep-nested", "".join(f"n{i}(" for i in range(n)) + "z=1" + ")" * n + "\n")
add("ok-deep-list", "[" * (K // 2 - 2) + "1" + "]" * (K // 2 - 2) + "\n")
add("ok-long-name", "'" + "x" * (K - 10) + "'(b=1)\n")
add("ok-long-quotes", "a('" + "''" * (K // 2 - 10) + "'=1)\n")
add("ok-many-escapes", "a('" + "\\x41\\" * (K // 5 - 4) + "'=1)\n")
add("ok-wide-flat", "r -> " + ", ".join(f"c{i}" for i in range(K // 12)) + "\n" + "\n".join(f"c{i} = {i}" for i in range(K // 12)) + "\n")
add("ok-flat-reverse-order", "\n".join(f"c{i} = {i}" for i in range(K // 24)) + "\n" + "\n".join(f"n{i} -> n{i+1}, c{i}" for i in reversed(range(K // 24))) + f"\nn{K//24} = 0\n")
add("ok-crlf", "a(\r\n b = 1,\r\n c = 2\r\n)\r\n" * 1)
add("ok-big-int", "a(b = " + "9" * 300 + ", c = 1)\n")
add("ok-underflow", "a(b = 1e-99999, c = 1)\n")
add("ok-comments", "# " + "x" * (K - 100) + "\n% more\na(b=1) # end\n")
add("ok-whitespace", " \t\f\r\n" * (K // 6) + "a(b=1)")
# errors
add("err-unclosed-deep", "a(" * (K // 2))
add("err-open-lists", "[" * K)
add("err-close-lists", "]" * K)
add("err-unclosed-quote", "a('" + "x" * (K - 3))
add("err-quote-backtrack-hex", "a('" + "\\x1" * (K // 3 - 1))
add("err-quote-backtrack-octal", "a('" + "\\1" * (K // 2 - 2))
add("err-quote-backslashes", "a('" + "\\\\" * (K // 2 - 2) + "\\")
add("err-quote-newline", "a('abc\ndef'=1)")
add("err-number-dots", "a(b = " + "1." * (K // 2 - 4) + ")")
add("err-number-exponent", "a(b = 1" + "e1" * (K // 2 - 4) + ")")
add("err-number-digits", "a(b = " + "9" * (K - 10) + ")")
add("err-number-trailing-dot", "a(b = " + "1" * (K - 10) + ".)")
add("err-infinite-exponent", "a(b = 1e99999, c = 1)")
add("err-comment-only", "#" * K)
add("err-empty", "")
add("err-nul", "a(b=1)\0")
add("ok-bom", "\ufeffa(b=1)")
add("err-cycle", "a -> b\nb -> a\n")
add("err-long-cycle", "\n".join(f"n{i} -> n{(i+1) % (K // 12)}" for i in range(K // 12)))
add("err-two-roots", "a -> b\nc -> d\nb = 1\nd = 2\n")
add("err-duplicate", "a(b=1, b=2)")
add("err-inner-no-children", "a(b(), c=1)")
add("err-leaf-no-value", "a(b, c=1)")
add("err-many-commas", "a(" + "," * (K - 3) + ")")
add("err-arrows", "a" + " -> a" * (K // 5))
add("err-max-max", "max max a(b=1)")
add("err-surrogate-escape", "a('\\uD800'=1)")
add("err-beyond-unicode", "a('\\x110000\\'=1)")
add("err-nul-escape", "a('\\0\\'=1)")
add("err-mixed-big-int-float", "a(b = 9007199254740993, c = 0.5)")
add("err-unicode-digits", "a(b = \u0661\u0662)")
add("err-long-line-error", "a(" + ", ".join(f"b{i}=1" for i in range(K // 8)) + ", !)")
add("err-deep-error", "".join(f"n{i}(" for i in range(K // 6)) + "z=" + ")" * (K // 6))
add("err-lone-cr", "a(b=1,\rc=)")
add("err-line-separator", "a(b=1)\u2028c")
worst = []
for name, text in cases.items():
    t = time.perf_counter()
    try:
        pyab.parse(text, name)
        res = "ok"
    except pyab.DSLError as e:
        res = f"err {e.line}:{e.column} {e.message[:60]}"
    except Exception as e:
        res = f"OTHER {type(e).__name__}: {e}"
    dt = time.perf_counter() - t
    worst.append((dt, name))
    flag = "" if (res == "ok") == name.startswith("ok") else "  <-- UNEXPECTED"
    print(f"{dt*1000:8.1f} ms {len(text.encode()):6d} B {name:28s} {res}{flag}")
    if len(sys.argv) > 1:
        open(os.path.join(sys.argv[1], name + ".tree"), "w", encoding="utf-8", newline="").write(text)
