"""``if``/``while``/``for`` → ``ag__.if_stmt``/``while_stmt``/``for_stmt`` calls.

Each statement becomes nested functions (branches, loop body, loop test)
and one call. Its state (see ``state.py``) is chosen from the dataflow
annotations, so a staged loop carries only what it must. Reads of a name
that may be unassigned go through ``ag__.ld`` for a clear error. Inner
statements are converted first; each function of the user's (nested ones
too) is analysed on its own.
"""
from __future__ import annotations

import gast

from autograph.converter import state as st
from autograph.converter import templates
from autograph.converter.activity import loads_name, modified_names
from autograph.converter.dataflow import FunctionAnalysis
from autograph.converter.transformer import StatementTransformer, user_functions


def _located(stmts: list, node) -> list:
    """The generated statements located at the user's ``node``: these only, as no pass moves
    statements after this one (``fill_locations`` gives the nested ones the same place)."""
    return templates.located(stmts, node, nested=False)


def _check_loads(names: list) -> None:
    """Each load of a maybe-unassigned name becomes ``ag__.ld(name)``, in place (the analysis
    found the nodes: no walk to find their parents)."""
    for node in names:
        if not isinstance(node, gast.Name):
            continue  # found twice, already wrapped
        inner = templates.make(gast.Name, **node.__dict__)
        call = templates.replace_as_expression("ag__.ld(x)", x=inner)
        node.__class__ = gast.Call
        d = node.__dict__
        d.clear()
        d.update(call.__dict__)


def _without_stores(block: list, names: set) -> list:
    """``block`` without top-level assignments to ``names`` (flags) that nothing reads later."""
    if not names:
        return block
    kept = []
    for i, s in enumerate(block):
        if (isinstance(s, gast.Assign) and len(s.targets) == 1
                and isinstance(s.targets[0], gast.Name) and s.targets[0].id in names
                and not _reads_name(block[i + 1:], s.targets[0].id)):
            continue
        kept.append(s)
    return kept or [gast.Pass()]


def _reads_name(stmts: list, name: str) -> bool:
    return loads_name(stmts, name)  # a flag: a fresh name (sees for loops' extra tests too)


class ControlFlowTransformer(StatementTransformer):
    def __init__(self, ctx, fa: FunctionAnalysis):
        super().__init__(ctx)
        self.fa = fa
        self.enclosing: list[set] = [set()]  # state names of the generated functions we are in
        self.in_try = 0  # inside the body of a `try` that has `except` handlers
        self.in_with = 0  # context managers of the `with` statements we are inside
        self.with_marks = 0  # statements told they are inside a `with`
        self.unbound_state: set[str] = set()  # the function's state names that may be unbound

    def visit_Try(self, node):
        if node.handlers:
            self.in_try += 1
        try:
            node.body = self.visit_block(node.body)
        finally:
            if node.handlers:
                self.in_try -= 1
        node.orelse = self.visit_block(node.orelse)
        node.finalbody = self.visit_block(node.finalbody)
        for h in node.handlers:
            h.body = self.visit_block(h.body)
        return node

    visit_TryStar = visit_Try

    def visit_With(self, node):
        self.in_with += len(node.items)
        marks = self.with_marks
        try:
            node.body = self.visit_block(node.body)
        finally:
            self.in_with -= len(node.items)
        if self.with_marks != marks:  # control flow inside: the operators check the managers
            for item in node.items:
                item.context_expr = templates.replace_as_expression(
                    "ag__.with_context(cm)", cm=item.context_expr)
        return node

    def _mark_try(self, call: list) -> list:
        """Tells the operator it runs inside try/except (it cannot stage there), or inside
        ``with`` statements (it checks their context managers when it stages)."""
        keywords = call[0].value.keywords
        if self.in_try:
            keywords.append(
                templates.make(gast.keyword, arg="inside_try", value=templates.constant(True)))
        if self.in_with:
            self.with_marks += 1
            keywords.append(templates.make(gast.keyword, arg="inside_with",
                                           value=templates.constant(self.in_with)))
        return call

    @staticmethod
    def _mark_lists(call: list, node, names) -> list:
        """Names the state lists the statement appends to (staged, they become TensorArrays)."""
        appends = getattr(node, "ag_appends", None)
        if appends:
            lists = [n for n in names if n in appends]
            if lists:
                call[0].value.keywords.append(
                    templates.make(gast.keyword, arg="lists", value=st.names_tuple(lists)))
        return call

    def _visit_inside(self, block: list, names) -> list:
        """Converts the statements of a generated function whose nonlocals are ``names``."""
        self.enclosing.append(set(names))
        try:
            return self.visit_block(block)
        finally:
            self.enclosing.pop()

    def _inits(self, names, node) -> list:
        # A name the enclosing generated function declares nonlocal is already bound (and may
        # hold a placeholder set by staged control flow): do not reset it.
        fresh = [n for n in names if n not in self.enclosing[-1]]
        self._note_maybe_unbound(names, node)
        return st.undefined_inits(fresh, node.ag_maybe_defined_in, self.fa)

    def _note_maybe_unbound(self, names, node) -> None:
        """Notes the function's variables that the statement's ``get_state`` may read
        unbound: assigned on some paths to it only (in an ``except`` handler, say). They get
        an ``Undefined`` binding at the top of the function (``_bind_top``); binding them
        here instead would overwrite the value some paths gave them."""
        surely = getattr(node, "ag_defined_in", None)
        if surely is None:  # (unreachable, or never analysed)
            return
        maybe = node.ag_maybe_defined_in
        for n in names:
            if n in maybe and n not in surely \
                    and all(n in shared for shared in self.enclosing[1:]):
                self.unbound_state.add(n)

    def visit_AnnAssign(self, node):
        """An annotated assignment to a variable a generated function shares (``nonlocal``)
        loses its annotation (``nonlocal`` names cannot be annotated; a local's annotation
        is never evaluated anyway)."""
        if not (isinstance(node.target, gast.Name) and node.target.id in self.enclosing[-1]):
            return node
        if node.value is None:
            return templates.located([gast.Pass()], node)
        new = templates.make(gast.Assign, targets=[node.target], value=node.value,
                             type_comment=None)
        return templates.located([new], node)

    def visit_Delete(self, node):
        """``del x`` of a variable a generated function shares (``nonlocal``) makes it
        ``Undefined`` instead: staged control flow still reads it (``get_state``), and a read
        after the statement is then a clear error, as Python's unbound variable is."""
        state = self.enclosing[-1]
        shared = [t for t in node.targets if isinstance(t, gast.Name) and t.id in state]
        if not shared:
            return node
        out = [gast.Delete(targets=[t for t in node.targets if t not in shared])]
        if not out[0].targets:
            out = []
        for t in shared:
            out += templates.replace("name = ag__.Undefined(label)", name=t.id,
                                     label=templates.constant(t.id))
        return templates.located(out, node)

    def visit_FunctionDef(self, node):
        return node  # converted separately

    visit_ClassDef = visit_Lambda = visit_AsyncFunctionDef = visit_FunctionDef


    # -- if ---------------------------------------------------------------------------------

    def visit_If(self, node):
        outputs = st.select_state(node, node.ag_live_out, self.fa)
        inside = node.ag_live_body_in | node.ag_live_orelse_in
        extra = [s for s in st.select_state(node, inside, self.fa) if s not in outputs]
        names = outputs + extra
        dead_flags = self.ctx.flags - set(names)
        node.body = self._visit_inside(_without_stores(node.body, dead_flags), names)
        node.orelse = self._visit_inside(_without_stores(node.orelse, dead_flags), names)
        namer = self.ctx.namer
        decls = st.declarations(names, self.fa)
        stmts = []
        branches = []
        for block, base in ((node.body, "if_body"), (node.orelse, "else_body")):
            if all(isinstance(s, gast.Pass) for s in block):
                branches.append(templates.constant(None))
                continue
            fn_name = namer.new(base)
            stmts.append(st.function(fn_name, [], decls, block))
            branches.append(fn_name)
        call_args = dict(test=node.test, body=branches[0], orelse=branches[1])
        if names:
            accessors, get_name, set_name = st.accessors(names, self.fa, namer)
            stmts = accessors + stmts
            template = "ag__.if_stmt(test, body, orelse, get_state, set_state, names)"
            if extra:
                template = "ag__.if_stmt(test, body, orelse, get_state, set_state, names, nouts)"
            call = templates.replace(template, get_state=get_name, set_state=set_name,
                                     names=st.names_tuple(names),
                                     nouts=templates.constant(len(outputs)),
                                     **call_args)
        else:
            call = templates.replace("ag__.if_stmt(test, body, orelse)", **call_args)
        inits = self._inits(names, node)
        call = self._mark_lists(self._mark_try(call), node, names)
        return _located(inits + stmts + call, node)

    # -- loops --------------------------------------------------------------------------------

    def _loop_state(self, node) -> list[str]:
        return st.select_state(node, node.ag_live_head, self.fa)

    def _loop_call(self, node, template, names, stmts, **kwargs):
        namer = self.ctx.namer
        if names:
            accessors, get_name, set_name = st.accessors(names, self.fa, namer)
            stmts = accessors + stmts
            call = templates.replace(template + ", get_state, set_state, names)",
                                     get_state=get_name, set_state=set_name,
                                     names=st.names_tuple(names), **kwargs)
        else:
            call = templates.replace(template + ")", **kwargs)
        options = getattr(node, "ag_loop_options", None)
        if options is not None:
            call[0].value.keywords.append(templates.make(gast.keyword, arg="opts",
                                                         value=options))
        inits = self._inits(names, node)
        call = self._mark_lists(self._mark_try(call), node, names)
        return _located(inits + stmts + call, node)

    @staticmethod
    def _take_loop_options(node) -> None:
        """``set_loop_options(...)`` statements in the loop body become the loop's ``opts``
        (evaluated before the loop, as in TensorFlow)."""
        keywords = []
        kept = []
        for s in node.body:
            call = s.value if isinstance(s, gast.Expr) else None
            func = call.func if isinstance(call, gast.Call) else None
            name = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", None)
            if name == "set_loop_options" and not call.args:
                keywords += [k for k in call.keywords if k.arg is not None]
            else:
                kept.append(s)
        if len(kept) != len(node.body):
            node.body = kept or [gast.Pass()]
            node.ag_loop_options = templates.make(
                gast.Dict, keys=[templates.constant(k.arg) for k in keywords],
                values=[k.value for k in keywords])

    def visit_While(self, node):
        self._take_loop_options(node)
        names = self._loop_state(node)
        node.body = self._visit_inside(node.body, names)
        namer = self.ctx.namer
        decls = st.declarations(names, self.fa)
        body_name, test_name = namer.new("loop_body"), namer.new("loop_test")
        body = st.function(body_name, [], decls, node.body)
        assigned_in_test = [n for n in names if n in modified_names(node.test)] \
            if self.ctx.namer.has_walrus else []  # (`while (c := f()) ...`)
        test = st.function(test_name, [], st.declarations(assigned_in_test, self.fa),
                           templates.replace("return test", test=node.test))
        return self._loop_call(node, "ag__.while_stmt(loop_test, loop_body", names,
                               [body, test], loop_test=test_name, loop_body=body_name)

    def visit_For(self, node):
        self._take_loop_options(node)
        names = self._loop_state(node)
        if isinstance(node.target, gast.Name) and node.target.id in names:
            # TensorFlow's opts['iterate_names']: a range loop starts its target at `start`
            options = getattr(node, "ag_loop_options", None)
            if options is None:
                options = node.ag_loop_options = templates.make(gast.Dict, keys=[], values=[])
            options.keys.append(templates.constant("iterate_names"))
            options.values.append(templates.constant(node.target.id))
        extra = getattr(node, "ag_extra_test", None)
        node.body = self._visit_inside(node.body, names)
        namer = self.ctx.namer
        decls = st.declarations(names, self.fa)
        body_name = namer.new("loop_body")
        if isinstance(node.target, gast.Name) and node.target.id not in names:
            param, body = node.target.id, node.body
        else:
            param = namer.new("itr")
            body = templates.replace("target = itr", target=node.target, itr=param) + node.body
        stmts = [st.function(body_name, [param], decls, body)]
        extra_name = templates.constant(None)
        if extra is not None:
            extra_name = namer.new("extra_test")
            stmts.append(st.function(extra_name, [], [],
                                     templates.replace("return test", test=extra)))
        return self._loop_call(node, "ag__.for_stmt(iterable, extra_test, loop_body", names,
                               stmts, iterable=node.iter, extra_test=extra_name,
                               loop_body=body_name)


def _bind_top(fn, fa: FunctionAnalysis, checked: set, flags: set, state: set) -> None:
    """``x = ag__.Undefined('x')`` first for the ``checked`` locals (``ag__.ld`` checks their
    reads), and for the ``state`` names staged control flow may read unbound: such a read
    inside a generated function reads a closure cell, and an unbound cell would raise
    NameError (naming no line of the program) before ``ld`` could raise Python's
    UnboundLocalError."""
    names = sorted((checked | state) & (fa.locals - fa.params - flags)
                   - fa.globals - fa.nonlocals)  # (flags have their own)
    if not names:
        return
    inits = []
    for name in names:
        inits += templates.replace("name = ag__.Undefined(label)", name=name,
                                   label=templates.constant(name))
    first = 1 if fn.body and isinstance(fn.body[0], gast.Expr) and isinstance(
        fn.body[0].value, gast.Constant) and isinstance(fn.body[0].value.value, str) else 0
    fn.body[first:first] = templates.located(inits, fn.body[0])


def transform(tree, ctx):
    for fn in user_functions(tree, ctx):
        namer = ctx.namer
        fa = FunctionAnalysis(fn, walrus=namer.has_walrus, scopes=namer.has_scopes,
                              declarations=namer.has_declarations,
                              composites=namer.has_composite_targets)
        checked = {n.id for n in fa.flagged_loads if isinstance(n, gast.Name)}
        _check_loads(fa.flagged_loads)  # (makes the flagged loads `ag__.ld` calls)
        transformer = ControlFlowTransformer(ctx, fa)
        fn.body = transformer.visit_block(fn.body)
        _bind_top(fn, fa, checked - ctx.namer.generated, ctx.flags, transformer.unbound_state)
    return tree

