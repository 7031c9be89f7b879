"""``tf.keras.layers.StackedRNNCells``: several RNN cells run as one, each step's output
the next cell's input, so ``RNN(StackedRNNCells([...]))`` is a deep RNN in one scan.

Its ``state_size`` lists every cell's states in order, flat (Keras nests them per cell),
which is how ``RNN`` here carries them; ``call`` takes and returns that flat list."""
from __future__ import annotations

import inspect

from runtime.keras.layers.base import Layer


def _sizes(cell) -> list:
    size = cell.state_size
    return list(size) if isinstance(size, (list, tuple)) else [size]


def training_kwargs(cell, training) -> dict:
    """``training`` for a cell's call, if it takes one (Keras's MinimalRNNCell does not)."""
    return {"training": training} if "training" in inspect.signature(cell.call).parameters \
        else {}


class StackedRNNCells(Layer):
    """The cells in order: cell ``i`` reads cell ``i - 1``'s output."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError("All cells must have a `call` method. Received cell without "
                                 f"a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError("All cells must have a `state_size` attribute. Received cell "
                                 f"without a `state_size`: {cell}")
            if getattr(cell, "dropout", 0) or getattr(cell, "recurrent_dropout", 0):
                raise NotImplementedError("cells with dropout are not supported inside "
                                          "StackedRNNCells here")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [size for cell in self.cells for size in _sizes(cell)]

    @property
    def output_size(self):
        last = self.cells[-1]
        return getattr(last, "output_size", None) or _sizes(last)[0]

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell.build(input_shape)
                cell.built = True
            width = getattr(cell, "output_size", None) or _sizes(cell)[0]
            input_shape = (input_shape[0], width)
        self.built = True

    def call(self, inputs, states, training=False):
        states, new_states, start = list(states), [], 0
        for cell in self.cells:
            count = len(_sizes(cell))
            inputs, cell_states = cell.call(inputs, states[start:start + count],
                                            **training_kwargs(cell, training))
            new_states.extend(cell_states if isinstance(cell_states, (list, tuple))
                              else [cell_states])
            start += count
        return inputs, new_states

    def get_config(self):
        return {**super().get_config(),
                "cells": [{"class_name": type(c).__name__, "config": c.get_config()}
                          for c in self.cells]}
