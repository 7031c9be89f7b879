"""Code that counts frames sees the program's frames, not those of converted control flow:
``warnings.warn(stacklevel=...)`` and ``sys._getframe`` called from converted code."""
from __future__ import annotations

import collections
import sys
import warnings

from autograph.impl.api import convert


def deprecated(x):
    if x > 0:
        for _ in range(1):
            warnings.warn("old api", DeprecationWarning, stacklevel=2)
    return x


def warns_here(x):
    if x > 0:
        warnings.warn("here")  # the-warning
    return x


def callers_module():
    if True:
        return sys._getframe(1).f_globals["__name__"]


def make_namedtuple():
    if True:
        point = collections.namedtuple("Point", "x y")
    return point


def _recorded(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args)
    (record,) = caught
    return record.filename, record.lineno, str(record.message)


def test_warning_stacklevel_counts_the_programs_frames():
    def call(fn):
        return _recorded(fn, 1)  # both calls from this line: stacklevel=2 points here
    assert call(convert(deprecated)) == call(deprecated)
    assert call(convert(deprecated))[0] == __file__


def test_a_warning_in_converted_code_is_at_the_users_line():
    assert _recorded(convert(warns_here), 1) == _recorded(warns_here, 1)
    assert _recorded(convert(warns_here), 1)[0] == __file__


def test_getframe_counts_the_programs_frames():
    assert convert(callers_module)() == callers_module() == __name__
    assert convert(make_namedtuple)().__module__ == __name__


def test_frozen_stdlib_frames_count_as_the_program_s():
    # abc is a frozen module in CPython 3.11: its __subclasscheck__ frame calls the hook, and
    # sys._getframe(1) there is that frame. The converted hook skipped it (typing's protocol
    # checks, which ask whether abc called them, failed after `autograph convert`).
    import abc

    def hook_caller(cls, other):
        if other is not None:
            return sys._getframe(1).f_globals["__name__"] == "abc" or NotImplemented
        return NotImplemented

    for fn in (hook_caller, convert(hook_caller)):
        hooked = type("Hooked", (abc.ABC,), {"__subclasshook__": classmethod(fn)})
        assert issubclass(int, hooked), fn
