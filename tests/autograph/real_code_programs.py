"""Hypothesis strategies for programs built from the constructs real code is made of.

``test_generated_programs.py`` grows a small grammar of int statements; this
one grows what caught the converter on real code, mixed and nested up to
depth 3:

- names local to one loop iteration, assigned in both branches of an ``if`` (some
  paths leaving the iteration by break/continue first) and used in the iteration;
  names assigned in one branch only, whose stale value from an earlier iteration is
  read, or which are unbound on the first one; names assigned in a ``try`` body that
  raised, read after the handler; loop variables read after the loop,
- break/continue/return inside try/except/else/finally, jumps in ``finally`` (also
  in a loop there, over a pending return or an exception in flight, in nested
  try statements), ``raise`` inside ``try`` with handlers (and bare ``raise`` in a
  handler, ``except ... as err``), try/finally without except, for/while ``else``,
- list items written at computed indices (``lst[j] = e``, ``lst[-1] += 1``,
  ``lst[i % 2] -= x``), nested lists, dict items (and keys new in both branches of
  an ``if``), appends, pops and inserts, in ifs and loops,
- nested defs and lambdas closing over loop variables, called inside the loop
  and after it (late binding, default-argument binding), helpers called through a
  lambda, ``nonlocal`` helpers,
- iterators shared across early exits (two loops over one ``iter()``,
  ``next(it, default)`` afterwards, ``while (v := next(it, None)) is not None``),
- nested generator functions (with jumps, try statements, early ``return``) and
  generator expressions (sum/len/max/any/all/next) consumed in place,
- chained comparisons mixed with and/or/not and conditional expressions, in
  if/while tests and in expressions, and ``x and y`` / ``x or y`` for their value,
- ``:=`` in if tests (first and later operands), in comprehension conditions and in
  ``any(...)`` witnesses read afterwards.

``programs(staged=False)`` draws from the whole set: the program runs as Python and
converted on Python values (same result, output and exception type).
``programs(staged=True)`` keeps to what stages validly with int tensors ``x`` and
``n``: no ``try``/``except`` around tensor-dependent control flow, lists indexed
only by Python ints, bounded loops, no Python loop left by a tensor-dependent
``break``/``return``, no list of functions built under staged control flow,
no ``print`` (it runs once per trace) and int-typed state only.
"""
from __future__ import annotations

import dataclasses
import itertools
import linecache
import re

from hypothesis import strategies as st

TARGETS = ("a", "b", "c")
CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")
_files = itertools.count()
_FLOW = re.compile(r"^\s*(if|elif|while|for) ", re.M)
_JUMP = re.compile(r"\b(break|continue|return)\b")
REFUSABLE = "# staging may refuse this: a jump in `finally` drops exceptions of the try body"

PY_RET = "return (a, b, c, lst, grid, d, [f() for f in fs])"
STAGED_RET = "return (a, b, c, lst[0], lst[1], d['p'], len(acc))"


@dataclasses.dataclass(frozen=True)
class Ctx:
    ints: tuple            # readable int names
    pyints: tuple          # of those, the ones that are Python ints even when staged
    targets: tuple         # int names statements may assign
    depth: int = 0
    loops: tuple = ()      # enclosing loops of this function, innermost last: "py"/"staged"
    staged_flow: bool = False  # inside control flow that may depend on a tensor
    loop_flow: bool = False  # ... entered inside the innermost loop
    func: str = "main"     # "main", "def" (nested function) or "gen" (nested generator)
    handler: bool = False  # inside an except handler (bare raise allowed)
    err: str = ""          # the name bound by ``except ... as``
    in_try_except: bool = False  # inside the body of a try that has handlers
    writes: bool = True    # may change lst/d/acc (not in a staged program's nested def)

    def with_names(self, names, py=False):
        names = tuple(n for n in names if n not in self.ints)
        return dataclasses.replace(self, ints=self.ints + names,
                                   pyints=self.pyints + (names if py else ()))


class Gen:
    """Draws a program; ``draw`` is hypothesis's. ``staged`` keeps to the stageable subset."""

    def __init__(self, draw, staged: bool):
        self.draw = draw
        self.staged = staged
        self.ids = itertools.count()
        self.refusable = False  # a jump in `finally` around staged code (see programs)

    # -- drawing helpers ------------------------------------------------------------------

    def pick(self, options):
        return self.draw(st.sampled_from(list(options)))

    def weighted(self, table):
        """``table``: (weight, value) pairs; weight 0 entries are left out."""
        return self.pick([v for w, v in table for _ in range(w) if w > 0])

    def num(self, lo, hi):
        return self.draw(st.integers(lo, hi))

    def coin(self, num=1, den=2):
        return self.draw(st.integers(0, den - 1)) < num

    def fresh(self, prefix):
        return f"{prefix}{next(self.ids)}"

    # -- expressions ----------------------------------------------------------------------

    def atom(self, ctx, py=False):
        names = ctx.pyints if py else ctx.ints
        if names and self.coin(2, 3):
            return self.pick(names)
        return str(self.num(-3, 5))

    def index(self, ctx, size="len(lst)"):
        """A list index: any int in Python, a Python int when staged."""
        if self.staged:
            loop_vars = [p for p in ctx.pyints if p != "j"]
            kind = self.weighted([(2, "0"), (2, "-1"), (2, "j"), (1, "1 - j"),
                                  (2 if loop_vars else 0, "var")])
            return f"{self.pick(loop_vars)} % 2" if kind == "var" else kind
        return self.weighted([(3, f"{self.expr(ctx, 1)} % {size}"), (2, "-1"), (2, "0"),
                              (1, self.atom(ctx)), (1, f"{self.atom(ctx)} % 2")])

    def expr(self, ctx, depth=0):
        """An int-valued expression (a bool in Python mode at times, as real code mixes them)."""
        if depth >= 2:
            return self.atom(ctx)
        s = self.staged
        kind = self.weighted([
            (6, "atom"), (4, "binop"), (1, "chain"), (2, "andor"), (0 if s else 1, "not"),
            (1, "ifexp"), (2, "item"), (1, "ditem"), (1, "len"), (1, "genexp"),
            (0 if s else 1, "floordiv"), (1, "call"),
        ])
        if kind == "atom":
            return self.atom(ctx)
        if kind == "binop":
            op = self.pick(["+", "-", "*"])
            left, right = self.expr(ctx, depth + 1), self.expr(ctx, depth + 1)
            return f"({left} * {right}) % 7" if op == "*" else f"({left} {op} {right})"
        if kind == "chain":
            chain = self.chain(ctx)
            return f"(1 if {chain} else 0)" if s or self.coin() else f"({chain})"
        if kind == "andor":
            return f"({self.expr(ctx, depth + 1)} {self.pick(['and', 'or'])} " \
                   f"{self.expr(ctx, depth + 1)})"
        if kind == "not":
            return f"(not {self.expr(ctx, depth + 1)})"
        if kind == "ifexp":
            return f"({self.expr(ctx, depth + 1)} if {self.cond(ctx, 1)} " \
                   f"else {self.expr(ctx, depth + 1)})"
        if kind == "item":
            if not s and self.coin(1, 4):
                return f"grid[{self.index(ctx, '2')}][{self.index(ctx, '2')}]"
            return f"lst[{self.index(ctx)}]"
        if kind == "ditem":
            if s:
                return "d['p']"
            key = self.pick(["'p'", "'q'", "'r'"])
            return self.pick([f"d[{key}]", f"d.get({key}, 0)", f"d.get({key}, -1)"])
        if kind == "len":
            return self.pick(["len(lst)", "len(d)", "len(acc)" if s else "len(fs)"])
        if kind == "genexp":
            return self.genexp(ctx)
        if kind == "floordiv":
            div = self.atom(ctx)
            return f"({self.expr(ctx, depth + 1)} // {div if self.coin(1, 3) else f'({div} or 1)'})"
        # a call of a helper the program defines first
        return f"g({self.expr(ctx, depth + 1)})"

    def genexp(self, ctx):
        v = self.fresh("e")
        inner = ctx.with_names([v], py=False)
        if self.staged:
            src = self.pick(["(a, b, c)", "(x, n)", "lst", "[x, a]"])
            body = self.pick([f"{v} * 2", f"{v} - 1", f"({v} + a)", v])
            if ctx.pyints and self.coin():  # a condition only on Python ints
                p = self.pick(ctx.pyints)
                return f"sum({body} for {v} in {src} if {p} % 2 == {self.num(0, 1)})"
            return f"sum({body} for {v} in {src})"
        src = self.pick(["lst", "lst[:]", "xs", "range(n)", "d.values()"])
        cond = self.cond(inner, 1)
        form = self.pick(["sum", "len", "max", "any", "all", "next"])
        body = self.expr(inner, 1)
        if form == "sum":
            return f"sum({body} for {v} in {src} if {cond})"
        if form == "len":
            return f"len([{body} for {v} in {src} if {cond}])"
        if form == "max":
            return f"max(({body} for {v} in {src} if {cond}), default=-1)"
        if form == "next":
            return f"next(({body} for {v} in {src} if {cond}), -2)"
        return f"{form}({cond} for {v} in {src})"

    def chain(self, ctx):
        k = self.num(3, 4)
        parts = [self.expr(ctx, 1)]
        for _ in range(k - 1):
            parts += [self.pick(CMP_OPS), self.expr(ctx, 1)]
        return " ".join(parts)

    def cond(self, ctx, depth=0):
        """A condition: a bool in staged mode, anything truthy in Python mode."""
        s = self.staged
        kinds = [(3, "cmp"), (3, "chain"), (2, "mod")]
        if depth < 1:
            kinds += [(2, "and"), (2, "or"), (1, "not"), (1, "ifexp")]
        if not s:
            kinds += [(1, "in"), (1, "truthy")]
        kind = self.weighted(kinds)
        if kind == "cmp":
            return f"{self.expr(ctx, 1)} {self.pick(CMP_OPS)} {self.expr(ctx, 1)}"
        if kind == "chain":
            return self.chain(ctx)
        if kind == "mod":
            return f"{self.pick(ctx.ints)} % 2 == {self.num(0, 1)}"
        if kind == "not":
            return f"not ({self.cond(ctx, depth + 1)})"
        if kind == "ifexp":
            return f"({self.cond(ctx, depth + 1)} if {self.cond(ctx, depth + 1)} " \
                   f"else {self.cond(ctx, depth + 1)})"
        if kind == "in":
            return self.pick([f"{self.expr(ctx, 1)} in lst", f"{self.expr(ctx, 1)} not in lst",
                              f"{self.pick(['p', 'q', 'r'])!r} in d"])
        if kind == "truthy":
            return self.pick([self.expr(ctx, 1), "lst", "fs"])
        return f"({self.cond(ctx, depth + 1)}) {kind} ({self.cond(ctx, depth + 1)})"

    def pycond(self, ctx):
        """A condition on Python ints only (never staged)."""
        p = self.pick(ctx.pyints)
        return self.pick([f"{p} % 2 == {self.num(0, 1)}", f"{p} > {self.num(0, 2)}",
                          f"0 <= {p} < {self.num(1, 3)}"])

    # -- statements -----------------------------------------------------------------------

    def block(self, ctx, lo=1, hi=3):
        lines = []
        for _ in range(self.num(lo, hi)):
            more, new = self.stmt(ctx)
            lines += more
            if new:
                ctx = ctx.with_names(new)
        return lines

    def ret(self, ctx):
        if ctx.func == "def":
            return "return r"
        if ctx.func == "gen":
            return "return"
        return STAGED_RET if self.staged else PY_RET

    def assign_value(self, ctx):
        e = self.expr(ctx)
        return f"({e}) % 101" if self.staged and not e.lstrip("-").isdigit() else e

    def stmt(self, ctx):
        s = self.staged
        compound = ctx.depth < 3
        in_loop = bool(ctx.loops)
        main = ctx.func == "main"
        # staged: a tensor-dependent break/return cannot leave a Python loop (see s_jump)
        any_py_loop = "py" in ctx.loops
        kinds = [
            (4, "assign"), (3, "augassign"), (0 if s else 1, "print"),
            (3 if compound else 0, "if"),
            (2 if compound else 0, "for"), (1 if compound else 0, "while"),
            (2 if in_loop and compound else 0, "iterlocal"),
            (1 if in_loop and compound and not s else 0, "stale"),
            (3 if in_loop else 0, "jump"),
            (0 if s and any_py_loop else 1, "return"),
            (2 if compound else 0, "try"),
            (0 if s else 1, "raise"),
            (3 if ctx.writes else 0, "item"), (1 if ctx.writes else 0, "ditem"),
            # (an append under staged control flow runs once per trace: the converter
            # rewrites appends only with Feature.LISTS, which convert() leaves off)
            (1 if ctx.writes and not (s and ctx.staged_flow) else 0, "append"),
            (2 if compound and main else 0, "closure"),
            (1 if compound and main and not s else 0, "nonlocal"),
            (1 if compound else 0, "iterator"),
            (1 if compound and main else 0, "generator"),
            (1 if compound else 0, "walrus_if"),
            (1 if not s else 0, "walrus_comp"),
            (1 if ctx.func == "gen" else 0, "yield"),
            (1 if ctx.err else 0, "print_err"),
            (1 if compound and not s else 0, "walrus_while"),
            (1 if not s else 0, "witness"),
            (1 if compound and not s else 0, "try_local"),
            (1 if compound and not s else 0, "finally_jumps"),
            # (staged: not under staged control flow, where the other branch of an outer
            # `if` would leave the dict without the key, which no staged `if` can give)
            (1 if compound and ctx.writes and not (s and ctx.staged_flow) else 0, "new_key"),
        ]
        kind = self.weighted(kinds)
        return getattr(self, f"s_{kind}")(ctx)

    def sub(self, ctx, **kw):
        return dataclasses.replace(ctx, depth=ctx.depth + 1, **kw)

    def s_assign(self, ctx):
        return [f"{self.pick(ctx.targets)} = {self.assign_value(ctx)}"], ()

    def s_augassign(self, ctx):
        if not self.staged and self.coin(1, 5):
            op = self.pick(["*=", "|="])
            return [f"{self.pick(ctx.targets)} {op} {self.num(-2, 3)}"], ()
        op = self.pick(["+=", "-="])
        return [f"{self.pick(ctx.targets)} {op} {self.atom(ctx)}"], ()

    def s_print(self, ctx):
        return [f"print({self.expr(ctx)}, {self.pick(list(ctx.ints) + ['lst', 'd'])})"], ()

    def s_print_err(self, ctx):
        return [f"print(type({ctx.err}).__name__, {ctx.err}.args)"], ()

    def s_yield(self, ctx):
        return [f"yield {self.expr(ctx)}"], ()

    def s_if(self, ctx):
        inner = self.sub(ctx, staged_flow=True, loop_flow=True)
        lines = [f"if {self.cond(ctx)}:"] + indent(self.block(inner))
        for _ in range(self.num(0, 1)):
            lines += [f"elif {self.cond(ctx)}:"] + indent(self.block(inner))
        if self.coin():
            lines += ["else:"] + indent(self.block(inner))
        return lines, ()

    def s_iterlocal(self, ctx):
        """A name assigned in both branches, then used in the rest of the iteration."""
        t = self.fresh("t")
        inner = self.sub(ctx, staged_flow=True, loop_flow=True)
        then = [f"{t} = {self.assign_value(ctx)}"]
        if self.coin(1, 3):
            then += self.block(inner, 1, 2)
        other = [f"{t} = {self.assign_value(ctx)}"]
        if self.coin(1, 3):
            other = self.block(inner, 1, 2) + other
        lines = [f"if {self.cond(ctx)}:"] + indent(then)
        if self.coin(1, 3):
            lines += [f"elif {self.cond(ctx)}:", f"    {t} = {self.assign_value(ctx)}"]
        lines += ["else:"] + indent(other)
        use = self.pick([f"{self.pick(ctx.targets)} += {t}",
                         f"{self.pick(ctx.targets)} = {t} - {self.atom(ctx)}"] +
                        ([f"lst[{self.index(ctx)}] = {t}"] if ctx.writes else []))
        return lines + [use], (t,)

    def s_stale(self, ctx):
        """A name assigned in one branch only and read after it: the value of an earlier
        iteration, or UnboundLocalError."""
        t = self.fresh("s")
        lines = [f"if {self.cond(ctx)}:", f"    {t} = {self.expr(ctx)}",
                 f"{self.pick(ctx.targets)} += {t}"]
        return lines, ()

    def s_jump(self, ctx):
        kind = self.pick(["break", "continue"])
        if self.staged and ctx.loops[-1] == "py":
            # a jump in a Python loop needs a Python condition, and no staged `if` around
            # it inside the loop: a jump flag that is a tensor cannot steer a Python loop
            if ctx.loop_flow:
                return self.s_assign(ctx)
            return [f"if {self.pycond(ctx)}:", f"    {kind}"], ()
        if self.staged and ctx.in_try_except:
            return [f"if {self.pycond(ctx)}:", f"    {kind}"] if self.coin() else [kind], ()
        if self.coin(1, 4):
            return [kind], ()
        return [f"if {self.cond(ctx)}:", f"    {kind}"], ()

    def s_return(self, ctx):
        r = self.ret(ctx)
        if self.staged and ctx.in_try_except:
            return [f"if {self.pycond(ctx)}:", f"    {r}"], ()
        if self.coin(1, 5):
            return [r], ()
        return [f"if {self.cond(ctx)}:", f"    {r}"], ()

    def s_raise(self, ctx):
        exc = self.pick(["ValueError", "KeyError", "IndexError", "ZeroDivisionError"])
        raise_ = self.pick([f"raise {exc}({self.atom(ctx)})", f"raise {exc}"])
        if ctx.handler and self.coin():
            raise_ = "raise"
        if self.coin(1, 4):
            return [raise_], ()
        return [f"if {self.cond(ctx)}:", f"    {raise_}"], ()

    def loop_body(self, ctx, kind, names=(), py_names=(), maybe_staged=False):
        """The context of a loop body. A loop that may or may not be staged (a Python
        bound and a condition on tensors) is a Python loop for jumps, and staged flow."""
        inner = self.sub(ctx, loops=ctx.loops + (kind,), loop_flow=False,
                         staged_flow=ctx.staged_flow or kind == "staged" or maybe_staged)
        inner = inner.with_names(names).with_names(py_names, py=True)
        return inner

    def loop_else(self, ctx, lines):
        if not self.staged and self.coin(1, 5):
            lines += ["else:"] + indent(self.block(self.sub(ctx), 1, 2))
        return lines

    def s_for(self, ctx):
        pool = [v for v in ("i", "j", "k", "q") if v not in ctx.ints]
        var = self.pick(pool) if pool else self.fresh("i")
        if self.staged:
            kind = self.pick(["staged", "staged", "py"])
            if kind == "staged":
                bound = self.pick(["n", "x % 4", "n - 1"])
                body = self.loop_body(ctx, "staged", names=(var,))
            else:
                bound = self.pick(["2", "3"])
                body = self.loop_body(ctx, "py", py_names=(var,))
            lines = [f"for {var} in range({bound}):"] + indent(self.block(body))
            return lines, ()
        src = self.pick(["range(n)", "range(x % 4)", "xs", "lst[:]", "range(3)",
                         "enumerate(xs)"])
        if src == "enumerate(xs)":
            v2 = self.fresh("v")
            head = f"for {var}, {v2} in enumerate(xs):"
            body = self.loop_body(ctx, "py", py_names=(var, v2))
        else:
            head = f"for {var} in {src}:"
            body = self.loop_body(ctx, "py", py_names=(var,))
        lines = self.loop_else(ctx, [head] + indent(self.block(body)))
        if self.coin(1, 6):  # the loop variable after the loop: its last value, or unbound
            lines.append(f"{self.pick(ctx.targets)} += {var}")
        return lines, ()

    def s_while(self, ctx):
        w = self.fresh("w")
        if self.staged:
            bound = self.pick(["n", "3", "x % 4", "2"])
            # (`n >= 0` makes the test a tensor from the first iteration on: a loop whose
            # test turns from a Python bool into a tensor is a documented error)
            extra = f" and ({self.cond(ctx, 1)}) and n >= 0" if self.coin() else ""
            # a Python bound with an extra condition may or may not be staged: treat it as
            # a Python loop for jumps, and its counter as a tensor
            kind = "staged" if bound in ("n", "x % 4") else "py"
            py = kind == "py" and not extra
            body = self.loop_body(ctx, kind, names=(w,), py_names=((w,) if py else ()),
                                  maybe_staged=bool(extra))
        else:
            bound = self.pick(["n", "3", "x % 4"])
            extra = f" and {self.cond(ctx, 1)}" if self.coin() else ""
            body = self.loop_body(ctx, "py", py_names=(w,))
        lines = [f"{w} = 0", f"while {w} < {bound}{extra}:", f"    {w} += 1"] + \
            indent(self.block(body))
        return self.loop_else(ctx, lines), ()

    def s_try(self, ctx):
        s = self.staged
        form = self.pick(["except", "except_else", "finally", "except_finally",
                          "except_else_finally"])
        has_except = form.startswith("except")
        if s and has_except:
            # staged: no tensor-dependent control flow inside a try with handlers
            body_ctx = self.sub(ctx, in_try_except=True)
            body = self.simple_block(body_ctx)
            raised = None
            if self.coin():
                raised = self.pick(["ValueError", "KeyError", "IndexError"])
                body.append(self.pick([f"raise {raised}",
                                       "lst[2] = 0" if raised == "IndexError" and ctx.writes
                                       else f"raise {raised}(1)"]))
        else:
            body_ctx = self.sub(ctx, in_try_except=has_except or ctx.in_try_except)
            body = self.block(body_ctx)
            raised = None
            if not s and self.coin(1, 3):
                body += self.s_raise(body_ctx)[0]
        lines = ["try:"] + indent(body)
        handler_ctx_base = self.sub(ctx, handler=True)
        if has_except:
            n_handlers = self.num(1, 2)
            excs = ["ValueError", "KeyError", "(IndexError, KeyError)", "Exception",
                    "ZeroDivisionError", "LookupError"]
            catching = self.num(0, n_handlers - 1)
            for h in range(n_handlers):
                exc = self.pick(excs)
                if raised and h == catching:  # staged: what the body raises is caught
                    exc = self.pick([raised, "Exception", "(IndexError, KeyError, ValueError)"])
                err = self.fresh("err") if not s and self.coin(1, 3) else ""
                hctx = dataclasses.replace(handler_ctx_base, err=err)
                hbody = self.simple_block(hctx) if s else self.block(hctx, 1, 2)
                lines += [f"except {exc}{' as ' + err if err else ''}:"] + indent(hbody)
        if "else" in form:
            ectx = self.sub(ctx)
            lines += ["else:"] + indent(self.simple_block(ectx) if s else self.block(ectx, 1, 2))
        if "finally" in form:
            fctx = self.sub(ctx)
            if s and has_except:
                fbody = self.simple_block(fctx)
            else:
                fbody = self.block(fctx, 1, 2)
            lines += ["finally:"] + indent(fbody)
            if s and not has_except and _FLOW.search("\n".join(body)) \
                    and _JUMP.search("\n".join(fbody)):
                self.refusable = True
        return lines, ()

    def simple_block(self, ctx):
        """Statements without tensor-dependent control flow (staged mode, inside a try with
        handlers): assignments, items, jumps on Python conditions."""
        out = []
        for _ in range(self.num(1, 2)):
            w = 1 if ctx.writes else 0
            kind = self.weighted([(3, "assign"), (2, "augassign"), (2 * w, "item"), (w, "ditem"),
                                  (1 if ctx.loops else 0, "jump"),
                                  (1 if "py" not in ctx.loops else 0, "return")])
            lines, _ = getattr(self, f"s_{kind}")(dataclasses.replace(ctx, in_try_except=True))
            out += lines
        return out

    def s_item(self, ctx):
        s = self.staged
        idx = self.index(ctx)
        if not s and self.coin(1, 4):
            idx2 = self.index(ctx, "2")
            target = f"grid[{self.index(ctx, '2')}][{idx2}]"
        else:
            target = f"lst[{idx}]"
        op = self.pick(["=", "+=", "-="])
        value = self.assign_value(ctx) if op == "=" else self.atom(ctx)
        return [f"{target} {op} {value}"], ()

    def s_ditem(self, ctx):
        if self.staged:
            key = "'p'"
            op = self.pick(["=", "+=", "-="])
            value = self.assign_value(ctx) if op == "=" else self.atom(ctx)
            return [f"d[{key}] {op} {value}"], ()
        key = self.pick(["'p'", "'q'", "'r'", f"{self.atom(ctx)} % 3"])
        return [self.pick([f"d[{key}] = {self.expr(ctx)}",
                           f"d[{key}] += {self.atom(ctx)}",
                           f"d[{key}] = d.get({key}, 0) + {self.atom(ctx)}"])], ()

    def s_append(self, ctx):
        if self.staged:
            return [f"acc.append({self.expr(ctx)})"], ()
        return [self.weighted([(3, f"lst.append({self.expr(ctx)})"), (1, "lst.pop()"),
                               (1, f"lst.insert(0, {self.atom(ctx)})")])], ()

    def s_closure(self, ctx):
        """A lambda or def closing over the loop variables and the state."""
        s = self.staged
        body = self.expr(ctx, 1)
        fs_ok = not (s and ctx.staged_flow)
        form = self.weighted([(2 if fs_ok else 0, "lambda_fs"), (1 if fs_ok else 0, "default_fs"),
                              (2, "lambda_call"), (2, "def_call"), (1 if fs_ok else 0, "def_fs"),
                              (1, "def_lambda")])
        if form == "lambda_fs":
            return [f"fs.append(lambda: {body})"], ()
        if form == "default_fs":
            v = self.pick([name for name in ctx.ints if name.isidentifier()])
            return [f"fs.append(lambda {v}={v}: {body})"], ()
        if form == "lambda_call":
            h = self.fresh("h")
            return [f"{h} = lambda m: m + {body}",
                    f"{self.pick(ctx.targets)} += {h}({self.atom(ctx)})"], ()
        h = self.fresh("h")
        # a staged program's helper changes no container: the converter cannot see a
        # change made in a call, so a staged loop would not carry it
        dctx = Ctx(ints=ctx.ints + ("m", "r"), pyints=ctx.pyints, targets=("r",),
                   depth=ctx.depth + 1, func="def", writes=not s)
        lines = [f"def {h}(m):", "    r = m"] + indent(self.block(dctx, 1, 2)) + \
            [f"    return r + {body}"]
        if form == "def_fs":
            return lines + [f"fs.append(lambda: {h}({self.atom(ctx)}))"], ()
        if form == "def_lambda":
            k = self.fresh("h")
            return lines + [f"{k} = lambda: {h}({self.atom(ctx)})",
                            f"{self.pick(ctx.targets)} += {k}()"], ()
        return lines + [f"{self.pick(ctx.targets)} += {h}({self.atom(ctx)})"], ()

    def s_nonlocal(self, ctx):
        h = self.fresh("bump")
        t = self.pick(ctx.targets)
        lines = [f"def {h}(m):", f"    nonlocal {t}", f"    {t} += m"]
        if self.coin():
            lines += [f"    if {self.cond(ctx)}:", f"        {t} -= 1"]
        return lines + [f"{h}({self.atom(ctx)})"], ()

    def s_iterator(self, ctx):
        """Two loops over one iterator, the first left by break; next(it, default) after."""
        s = self.staged
        it = self.fresh("it")
        v, v2 = self.fresh("v"), self.fresh("v")
        if s:
            q = self.fresh("q")
            src = self.pick(["[a, b, c]", "(x, n, 1)", "[lst[0], a]"])
            first = self.loop_body(ctx, "py", names=(v,), py_names=(q,))
            lines = [f"{it} = iter({src})",
                     f"for {q}, {v} in enumerate({it}):"] + \
                indent(self.block(first, 1, 2) + [f"if {q} == {self.num(0, 1)}:", "    break"])
            second = self.loop_body(ctx, "py", names=(v2,))
            lines += [f"for {v2} in {it}:"] + indent(self.block(second, 1, 2))
            lines.append(f"{self.pick(ctx.targets)} += next({it}, -1)")
            return lines, ()
        src = self.pick(["xs", "lst[:]", "range(n + 2)", "d.values()"])
        first = self.loop_body(ctx, "py", py_names=(v,))
        lines = [f"{it} = iter({src})", f"for {v} in {it}:"] + \
            indent(self.block(first, 1, 2) + [f"if {self.cond(first)}:", "    break"])
        if self.coin():
            second = self.loop_body(ctx, "py", py_names=(v2,))
            lines += [f"for {v2} in {it}:"] + indent(self.block(second, 1, 2))
        lines.append(self.pick([f"{self.pick(ctx.targets)} += next({it}, -1)",
                                f"print(next({it}, None))",
                                f"{self.pick(ctx.targets)} = next({it})"]))
        return lines, ()

    def s_generator(self, ctx):
        s = self.staged
        g = self.fresh("gen")
        if s:  # Python control flow only: a generator is not converted
            q = self.fresh("q")
            lines = [f"def {g}(m):", f"    for {q} in range({self.num(1, 3)}):",
                     f"        if {q} % 2 == {self.num(0, 1)}:",
                     f"            yield m + {q}",
                     f"        yield {self.atom(ctx)} + {q}"]
            return lines + [f"{self.pick(ctx.targets)} += sum({g}({self.atom(ctx)}))"], ()
        gctx = Ctx(ints=ctx.ints + ("m", "r"), pyints=ctx.pyints, targets=("r",),
                   depth=ctx.depth + 1, func="gen")
        lines = [f"def {g}(m):", "    r = m"] + indent(self.block(gctx, 1, 3)) + ["    yield r"]
        use = self.pick(["sum", "list", "for", "next"])
        t = self.pick(ctx.targets)
        arg = self.atom(ctx)
        if use == "sum":
            lines.append(f"{t} += sum({g}({arg}))")
        elif use == "list":
            lines.append(f"print(list({g}({arg})))")
        elif use == "next":
            lines.append(f"{t} = next({g}({arg}), {self.atom(ctx)})")
        else:
            v = self.fresh("v")
            body = self.loop_body(ctx, "py", py_names=(v,))
            lines += [f"for {v} in {g}({arg}):"] + indent(self.block(body, 1, 2))
        return lines, ()

    def s_walrus_if(self, ctx):
        t = self.fresh("y")
        inner = self.sub(ctx, staged_flow=True, loop_flow=True)
        form = self.pick(["first", "first", "later"] if not self.staged else ["first"])
        if form == "first":
            test = f"({t} := {self.expr(ctx)}) {self.pick(CMP_OPS)} {self.atom(ctx)}"
            if self.coin():
                test += f" {self.pick(['and', 'or'])} {self.cond(ctx.with_names([t]), 1)}"
            then_ctx = inner.with_names([t])
            lines = [f"if {test}:"] + indent(self.block(then_ctx, 1, 2) +
                                             [f"{self.pick(ctx.targets)} += {t}"])
            if self.coin():
                lines += ["else:"] + indent(self.block(then_ctx, 1, 2))
            return lines, (t,)
        op = self.pick(['and', 'or'])
        test = f"{self.cond(ctx, 1)} {op} " \
               f"({t} := {self.expr(ctx)}) {self.pick(CMP_OPS)} {self.atom(ctx)}"
        # after `c and (t := e) ...` t is bound in the branch only if c held: read it there
        # only for `and`; for `or` read it in the else branch
        if op == "and":
            lines = [f"if {test}:"] + indent([f"{self.pick(ctx.targets)} += {t}"] +
                                             self.block(inner.with_names([t]), 1, 1))
        else:
            lines = [f"if {test}:"] + indent(self.block(inner, 1, 1)) + \
                ["else:", f"    {self.pick(ctx.targets)} -= {t}"]
        return lines, ()

    def s_walrus_while(self, ctx):
        """``while (v := next(it, None)) is not None``, left early at times."""
        it, v = self.fresh("it"), self.fresh("v")
        body = self.loop_body(ctx, "py", py_names=(v,))
        lines = [f"{it} = iter({self.pick(['xs', 'lst[:]', 'range(n)'])})",
                 f"while ({v} := next({it}, None)) is not None:"] + \
            indent(self.block(body, 1, 3))
        if self.coin():
            lines.append(f"{self.pick(ctx.targets)} += len(list({it}))")
        return lines, ()

    def s_witness(self, ctx):
        """``any((y := f(v)) ... for v in xs)``, then the witness ``y`` when one was found."""
        y, v = self.fresh("y"), self.fresh("e")
        inner = ctx.with_names([v])
        fn = self.pick(["any", "all"])
        test = f"{fn}(({y} := {self.expr(inner, 1)}) {self.pick(CMP_OPS)} {self.atom(ctx)} " \
               f"for {v} in {self.pick(['lst', 'xs', 'range(n)'])})"
        use = f"{self.pick(ctx.targets)} {self.pick(['+=', '-='])} {y}"
        if fn == "any":  # y is bound when a witness was found
            return [f"if {test}:", f"    {use}"], ()
        return [f"if not {test}:", f"    {use}"], ()

    def s_finally_jumps(self, ctx):
        """A jump pending from the try body (or an exception in flight) meets a jump in
        ``finally``, perhaps inside a loop there, or nested try statements."""
        inner = self.sub(ctx)
        jumps = ["return"] + (["break", "continue"] if ctx.loops else [])
        first = self.pick(jumps + ["raise"])
        pending = {"return": self.ret(ctx), "raise": "raise ValueError(1)"}.get(first, first)
        body = self.block(inner, 0, 1) + ([f"if {self.cond(ctx)}:", f"    {pending}"]
                                          if self.coin() else [pending])
        if self.coin(1, 3):  # nested: the inner finally runs first
            body = ["try:"] + indent(body) + ["finally:"] + indent(self.block(inner, 1, 2))
        second = self.pick(jumps + ["loop_return", "none"])
        fin = self.block(inner, 1, 2)
        if second == "loop_return":
            v = self.fresh("f")
            fin += [f"for {v} in range({self.pick(['x % 3', 'n', '2'])}):",
                    f"    if {self.cond(ctx.with_names([v]), 1)}:",
                    f"        {self.ret(ctx)}"]
        elif second != "none":
            jump = self.ret(ctx) if second == "return" else second
            fin += [f"if {self.cond(ctx)}:", f"    {jump}"] if self.coin() else [jump]
        lines = ["try:"] + indent(body)
        if self.coin(1, 3):
            lines += [f"except {self.pick(['ValueError', 'KeyError', 'Exception'])}:"] + \
                indent(self.block(inner, 1, 2))
        return lines + ["finally:"] + indent(fin), ()

    def s_try_local(self, ctx):
        """A name assigned in a try body that may raise, read after the try (unbound if
        the handler ran before it was assigned, or stale in a loop)."""
        t = self.fresh("t")
        risky = self.pick([f"lst[{self.atom(ctx)}]", f"d[{self.pick(['p', 'q', 'r'])!r}]",
                           f"{self.expr(ctx, 1)} // {self.atom(ctx)}", f"next(iter(xs))"])
        inner = self.sub(ctx)
        lines = ["try:", f"    {t} = {risky}"] + indent(self.block(inner, 0, 1)) + \
            [f"except {self.pick(['(IndexError, KeyError)', 'LookupError', 'Exception'])}:"] + \
            indent(self.block(inner, 1, 2))
        if self.coin(1, 3):
            lines += ["finally:"] + indent(self.block(inner, 1, 1))
        return lines + [f"{self.pick(ctx.targets)} += {t}"], ()

    def s_new_key(self, ctx):
        """A dict key that does not exist yet, set in both branches of an if, read after."""
        key = self.fresh("k")
        inner = self.sub(ctx, staged_flow=True, loop_flow=True)
        then = [f"d[{key!r}] = {self.assign_value(ctx)}"]
        other = [f"d[{key!r}] = {self.assign_value(ctx)}"]
        if self.coin(1, 3):
            then += self.block(inner, 1, 1)
        lines = [f"if {self.cond(ctx)}:"] + indent(then) + ["else:"] + indent(other)
        return lines, (f"d[{key!r}]",)

    def s_walrus_comp(self, ctx):
        y, v = self.fresh("y"), self.fresh("e")
        inner = ctx.with_names([v])
        out = self.fresh("l")
        lines = [f"{out} = [{y} for {v} in {self.pick(['lst', 'xs', 'range(n)'])} "
                 f"if ({y} := {self.expr(inner, 1)}) {self.pick(CMP_OPS)} {self.atom(ctx)}]",
                 f"{self.pick(ctx.targets)} += len({out})"]
        if self.coin():
            lines += [f"if {out}:", f"    {self.pick(ctx.targets)} += {y}"]
        return lines, ()


def indent(lines):
    return ["    " + line for line in lines]


@st.composite
def programs(draw, staged: bool):
    gen = Gen(draw, staged)
    if staged:
        head = ["def generated(x, n):",
                "    a, b, c = x, n, 1",
                "    lst = [0, 0]",
                "    d = {'p': 0}",
                "    acc = []",
                "    j = 1",
                "    fs = []",
                "    g = lambda v: v + a"]
        ctx = Ctx(ints=("a", "b", "c", "x", "n", "j"), pyints=("j",), targets=TARGETS)
        body = gen.block(ctx, 2, 5)
        tail = ["    for f in fs:", "        a += f()", "    " + STAGED_RET]
        if gen.refusable:
            head.insert(1, "    " + REFUSABLE)
    else:
        head = ["def generated(x, n, xs):",
                "    a, b, c = x, n, 1",
                "    lst = [x, n, 1]",
                "    grid = [[0, 1], [2, 3]]",
                "    d = {'p': 0, 'q': 1}",
                "    fs = []",
                "    g = lambda v: v + a"]
        ctx = Ctx(ints=("a", "b", "c", "x", "n"), pyints=("a", "b", "c", "x", "n"),
                  targets=TARGETS)
        body = gen.block(ctx, 2, 5)
        tail = ["    " + PY_RET]
    return "\n".join(head + indent(body) + tail) + "\n"


def load(source: str):
    """The ``generated`` function of ``source``, whose text the converter can read."""
    filename = f"<real-code program {next(_files)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    ns = {}
    exec(compile(source, filename, "exec"), ns)
    return ns["generated"]


# -- shrinking a failing program by lines ---------------------------------------------------
#
# Hypothesis shrinks these programs very slowly (each candidate is converted and traced,
# and the draws of a 30-line program are many), so the tests turn its shrinking off and
# report the failing program reduced by this line-based pass instead: drop a statement
# (with its block) or unwrap a compound statement while the program fails the same way.

_COUNTER_STEP = re.compile(r"\s*w\d+ \+= 1$")


def _indent_of(line):
    return len(line) - len(line.lstrip())


def _block_end(lines, i):
    j = i + 1
    while j < len(lines) and _indent_of(lines[j]) > _indent_of(lines[i]):
        j += 1
    return j


def _kept(lines, i):
    """The header bindings, the final return and the loop counters' steps stay."""
    if i == len(lines) - 1 or _COUNTER_STEP.match(lines[i]):
        return True
    return all(_indent_of(l) == 4 and " = " in l and not l.strip().startswith(
        ("if ", "for ", "while ", "try")) for l in lines[1:i + 1])


def _compiles(lines):
    out = []
    for k, line in enumerate(lines):  # an emptied block gets a pass
        out.append(line)
        nxt = lines[k + 1] if k + 1 < len(lines) else ""
        if line.rstrip().endswith(":") and _indent_of(nxt) <= _indent_of(line):
            out.append(" " * (_indent_of(line) + 4) + "pass")
    source = "\n".join(out) + "\n"
    try:
        compile(source, "<shrink>", "exec")
    except SyntaxError:
        return None
    return source


def _candidates(lines):
    for i in range(1, len(lines)):
        if not _kept(lines, i):
            yield lines[:i] + lines[_block_end(lines, i):]
    for i in range(1, len(lines)):
        head = lines[i].strip()
        if head.endswith(":") and not head.startswith(("def ", "else", "elif", "except",
                                                       "finally", "try")):
            j, cut = _block_end(lines, i), _indent_of(lines[i]) + 4
            body = [l[4:] if _indent_of(l) >= cut else l for l in lines[i + 1:j]]
            yield lines[:i] + body + lines[j:]


def shrink(source: str, fails_the_same_way, budget: float = 20.0) -> str:
    """``source`` reduced by lines while ``fails_the_same_way(candidate)`` holds (an
    exception in it counts as no), for at most ``budget`` seconds."""
    import time
    deadline = time.monotonic() + budget
    lines = source.rstrip("\n").split("\n")
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for cand in _candidates(lines):
            if time.monotonic() > deadline:
                break
            candidate = _compiles(cand)
            if candidate is None or len(candidate) >= len(source):
                continue
            try:
                same = fails_the_same_way(candidate)
            except Exception:  # noqa: BLE001
                same = False
            if same:
                source, lines, progress = candidate, candidate.rstrip("\n").split("\n"), True
                break
    return source
