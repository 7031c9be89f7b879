"""runtime.collector: conversion and tracing run with the cyclic collector paused, and
leave it as the program had it."""
import gc

import pytest

from autograph.converter import conversion
from autograph.impl import api
from runtime import collector


def test_paused_turns_the_collector_off_and_on_again():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():  # nested: the outer one turns it on again
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError):
        with collector.paused():
            raise KeyError
    assert gc.isenabled()


def test_a_program_that_turned_it_off_keeps_it_off():
    gc.disable()
    try:
        assert collector.pause() is False
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def _converted_twice(x):
    return x + 1 if x > 0 else x


def test_to_code_and_conversion_run_with_the_collector_paused(monkeypatch):
    seen = []
    convert = conversion.convert_function

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return convert(*args, **kwargs)
    monkeypatch.setattr(conversion, "convert_function", spy)
    api.to_code(_converted_twice)
    for key in [k for k in api._code_cache if k[0] is _converted_twice.__code__]:
        del api._code_cache[key]
    api._fn_cache.pop(_converted_twice, None)
    assert api.convert(_converted_twice)(2) == 3
    assert seen == [False, False] and gc.isenabled()
