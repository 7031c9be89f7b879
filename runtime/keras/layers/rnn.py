"""Recurrent layers: SimpleRNN, GRU and LSTM over their cells, as Keras 3 computes them.

A cell maps ``(inputs_t, states) -> (output_t, new_states)``; ``RNN`` runs a cell over the
time axis of ``[batch, time, features]`` inputs with ``tf.scan`` (a while loop when
staged), so sequences of unknown length work inside a tf.function and gradients flow
through the loop. Dropout masks are drawn once per call, before the loop, and reused at
every step (Keras's rule). A Keras mask ``[batch, time]`` skips steps: a masked step keeps
the previous states and repeats the previous output (zeros with ``zero_output_for_mask``),
as Keras's TensorFlow backend does.
"""
from __future__ import annotations

from graph import dtypes
from runtime import nest
from runtime.keras import activations, initializers, random as keras_random
from runtime.keras.layers.base import Layer, snake_case, wrapped_call
from runtime.keras.layers.stacked_cells import StackedRNNCells, training_kwargs
from runtime.ops import array_ops as A, math_ops as M
from runtime.ops.functional_ops import scan


def _zero_states(state_size, batch_size) -> list:
    sizes = state_size if isinstance(state_size, (list, tuple)) else [state_size]
    return [A.zeros([batch_size, size]) for size in sizes]


class _Cell(Layer):
    """Shared cell parts: the three weights and the dropout masks.

    As Keras 3's cells, the masks are drawn at every call of the RNN (used only when
    training); LSTM and GRU cells with ``implementation=1`` (forced by a recurrent dropout)
    draw one mask per gate, inputs' first, and project each gate separately."""

    _gates = 1
    # Keras 3 makes the cell's SeedGenerator before its initializers in SimpleRNNCell, after
    # them in LSTMCell and GRUCell: the order in which unseeded initializers draw their seeds
    # from Python's `random`, so every layer built later gets TensorFlow's weights.
    _seed_first = False

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        if self._seed_first:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        if not self._seed_first:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.implementation = 1 if self.recurrent_dropout else implementation
        self.seed = seed
        self.kernel = self.recurrent_kernel = self.bias = None
        self._masks = (None, None)

    @property
    def _per_gate(self) -> bool:
        return self._gates > 1 and self.implementation == 1

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        width = self._gates * self.units
        self.kernel = self.add_weight(shape=(input_shape[-1], width),
                                      initializer=self.kernel_initializer, name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, width),
                                                initializer=self.recurrent_initializer,
                                                name="recurrent_kernel")
        if self.use_bias:
            self.bias = self.add_weight(shape=self._bias_shape(), name="bias",
                                        initializer=self._bias_initializer())
        self.built = True

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def get_initial_state(self, batch_size=None):
        """Zero states, one ``(batch_size, units)`` tensor per state (Keras 3)."""
        return _zero_states(self.state_size, batch_size)

    def make_dropout_masks(self, step_input, state, training):
        """Draws this call's masks (kept until the next call; used when training)."""
        def mask(like, rate):
            if rate <= 0:
                return None
            masks = [keras_random.dropout(A.ones_like(like), rate, seed=self.seed_generator)
                     for _ in range(self._gates if self._per_gate else 1)]
            return (masks if self._per_gate else masks[0]) if training and rate < 1 else None
        self._masks = (mask(step_input, self.dropout), mask(state, self.recurrent_dropout))

    def _dropped(self, inputs, h_tm1):
        in_mask, rec_mask = self._masks
        return (inputs if in_mask is None else M.multiply(inputs, in_mask),
                h_tm1 if rec_mask is None else M.multiply(h_tm1, rec_mask))

    def _gate_projections(self, inputs, h_tm1, input_bias):
        """Per gate (``implementation=1``): the dropped inputs projected by the gate's kernel
        columns (plus its bias), and the dropped previous states of the gate."""
        in_masks, rec_masks = self._masks
        units, xs, hs = self.units, [], []
        for g in range(self._gates):
            x = inputs if in_masks is None else M.multiply(inputs, in_masks[g])
            x = M.matmul(x, self.kernel[:, g * units:(g + 1) * units])
            xs.append(x if input_bias is None else
                      M.add(x, input_bias[g * units:(g + 1) * units]))
            hs.append(h_tm1 if rec_masks is None else M.multiply(h_tm1, rec_masks[g]))
        return xs, hs

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout,
                "seed": self.seed}


def _bias_add(x, bias):
    return x if bias is None else M.add(x, bias)


class SimpleRNNCell(_Cell):
    """``h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)``."""

    _seed_first = True

    def call(self, inputs, states, training=False):
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        inputs, h_dropped = self._dropped(inputs, h_tm1)
        h = _bias_add(M.matmul(inputs, self.kernel), self.bias)
        output = self.activation(M.add(h, M.matmul(h_dropped, self.recurrent_kernel)))
        return output, [output] if isinstance(states, (list, tuple)) else output


class LSTMCell(_Cell):
    """The LSTM step: input, forget, cell and output gates (Keras's gate order i, f, c, o);
    ``unit_forget_bias`` starts the forget gate's bias at one."""

    _gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, dropout, recurrent_dropout,
                         seed, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias

    @property
    def state_size(self):
        return [self.units, self.units]

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        base, units = self.bias_initializer, self.units

        def init(shape, dtype=None):
            return A.concat([base((units,), dtype=dtype),
                             initializers.Ones()((units,), dtype=dtype),
                             base((2 * units,), dtype=dtype)], axis=0)
        return init

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states
        if self._per_gate:
            xs, hs = self._gate_projections(inputs, h_tm1, self.bias)
            units = self.units
            z0, z1, z2, z3 = [M.add(x, M.matmul(h, self.recurrent_kernel[:, g * units:
                                                                         (g + 1) * units]))
                              for g, (x, h) in enumerate(zip(xs, hs))]
        else:
            inputs, h_dropped = self._dropped(inputs, h_tm1)
            z = M.add(M.matmul(inputs, self.kernel), M.matmul(h_dropped, self.recurrent_kernel))
            z0, z1, z2, z3 = A.split(_bias_add(z, self.bias), 4, axis=-1)
        i, f = self.recurrent_activation(z0), self.recurrent_activation(z1)
        c = M.add(M.multiply(f, c_tm1), M.multiply(i, self.activation(z2)))
        h = M.multiply(self.recurrent_activation(z3), self.activation(c))
        return h, [h, c]

    def get_config(self):
        return {**super().get_config(), "unit_forget_bias": self.unit_forget_bias,
                "recurrent_activation": activations.serialize(self.recurrent_activation)}


class GRUCell(_Cell):
    """The GRU step (update gate z, reset gate r); with ``reset_after`` (Keras's default)
    the reset gate applies after the recurrent matmul and the bias has two rows."""

    _gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", dropout=0.0,
                 recurrent_dropout=0.0, reset_after=True, seed=None, **kwargs):
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, dropout, recurrent_dropout,
                         seed, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs, states, training=False):
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        if self.bias is None:
            input_bias = recurrent_bias = None
        elif self.reset_after:
            input_bias, recurrent_bias = self.bias[0], self.bias[1]
        else:
            input_bias, recurrent_bias = self.bias, None
        if self._per_gate:
            z, hh = self._per_gate_candidate(inputs, h_tm1, input_bias, recurrent_bias)
        else:
            z, hh = self._fused_candidate(inputs, h_tm1, input_bias, recurrent_bias)
        h = M.add(M.multiply(z, h_tm1), M.multiply(M.subtract(1.0, z), hh))
        return h, [h] if isinstance(states, (list, tuple)) else h

    def _fused_candidate(self, inputs, h_tm1, input_bias, recurrent_bias):
        """``implementation=2``: the update gate and the candidate state, the gates
        projected together."""
        inputs, h_dropped = self._dropped(inputs, h_tm1)
        units = self.units
        x_z, x_r, x_h = A.split(_bias_add(M.matmul(inputs, self.kernel), input_bias), 3, axis=-1)
        if self.reset_after:
            inner = _bias_add(M.matmul(h_dropped, self.recurrent_kernel), recurrent_bias)
            rec_z, rec_r, rec_h = A.split(inner, 3, axis=-1)
            z = self.recurrent_activation(M.add(x_z, rec_z))
            r = self.recurrent_activation(M.add(x_r, rec_r))
            return z, self.activation(M.add(x_h, M.multiply(r, rec_h)))
        rec = self.recurrent_kernel
        z = self.recurrent_activation(M.add(x_z, M.matmul(h_dropped, rec[:, :units])))
        r = self.recurrent_activation(M.add(x_r, M.matmul(h_dropped, rec[:, units:2 * units])))
        return z, self.activation(M.add(x_h, M.matmul(M.multiply(r, h_dropped),
                                                      rec[:, 2 * units:])))

    def _per_gate_candidate(self, inputs, h_tm1, input_bias, recurrent_bias):
        """``implementation=1``: the update gate and the candidate state, each gate from its
        own dropped inputs and previous state."""
        (x_z, x_r, x_h), (h_z, h_r, h_h) = self._gate_projections(inputs, h_tm1, input_bias)
        rec, units = self.recurrent_kernel, self.units
        rb = (lambda g: None) if recurrent_bias is None or not self.reset_after else \
            (lambda g: recurrent_bias[g * units:(g + 1) * units])
        z = self.recurrent_activation(M.add(x_z, _bias_add(M.matmul(h_z, rec[:, :units]),
                                                           rb(0))))
        r = self.recurrent_activation(M.add(x_r, _bias_add(
            M.matmul(h_r, rec[:, units:2 * units]), rb(1))))
        if self.reset_after:
            rec_h = M.multiply(r, _bias_add(M.matmul(h_h, rec[:, 2 * units:]), rb(2)))
        else:
            rec_h = M.matmul(M.multiply(r, h_h), rec[:, 2 * units:])
        return z, self.activation(M.add(x_h, rec_h))

    def get_config(self):
        return {**super().get_config(), "reset_after": self.reset_after,
                "recurrent_activation": activations.serialize(self.recurrent_activation)}


def _where(keep, new, old):
    """``new`` where the step is kept (``keep``: [batch] bools), else ``old``."""
    return M.where(A.expand_dims(keep, -1), new, old)


class RNN(Layer):
    """Runs ``cell`` over the time axis; the last output (or all, ``return_sequences``),
    followed by the final states with ``return_state``."""

    supports_masking = True

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        if stateful:
            raise NotImplementedError("stateful RNN layers are not supported")
        super().__init__(**kwargs)
        self.cell = StackedRNNCells(cell) if isinstance(cell, (list, tuple)) else cell
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.unroll = go_backwards, unroll
        self.zero_output_for_mask = zero_output_for_mask

    def compute_mask(self, inputs, mask=None):
        """The input's step mask for the sequence output (none for the last output or the
        states), as Keras gives it."""
        mask = nest.flatten(mask)[0] if isinstance(mask, (list, tuple)) else mask
        output_mask = mask if self.return_sequences else None
        if not self.return_state:
            return output_mask
        sizes = self.cell.state_size
        return [output_mask] + [None] * (len(sizes) if isinstance(sizes, (list, tuple)) else 1)

    def build(self, input_shape):
        if input_shape is None or len(input_shape) != 3:
            raise ValueError(f"Input should have rank 3 [batch, timesteps, features], "
                             f"received input_shape={input_shape}")
        if not self.cell.built:
            self.cell.build(tuple(input_shape[:1]) + tuple(input_shape[2:]))
            self.cell.built = True
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=False):
        cell, batch = self.cell, A.shape(sequences)[0]
        sizes = cell.state_size if isinstance(cell.state_size, (list, tuple)) \
            else [cell.state_size]
        if initial_state is None:
            states = [A.zeros(A.stack([batch, size]), dtype=sequences.dtype) for size in sizes]
        else:
            states = list(initial_state if isinstance(initial_state, (list, tuple))
                          else [initial_state])
        time_major = A.transpose(sequences, [1, 0, 2])
        if self.go_backwards:
            time_major = A.reverse(time_major, [0])
        if isinstance(cell, _Cell):
            cell.make_dropout_masks(sequences[:, 0], states[0], training)
        if isinstance(mask, (list, tuple)):
            mask = nest.flatten(mask)[0]
        if mask is not None:  # scanned along with the steps, in the same order
            steps = A.transpose(M.cast(mask, dtypes.bool_), [1, 0])
            time_major = (time_major, A.reverse(steps, [0]) if self.go_backwards else steps)

        kwargs = training_kwargs(cell, training)

        def step(carry, x):
            x, keep = x if mask is not None else (x, None)
            output, new_states = cell.call(x, list(carry[1]), **kwargs)
            new_states = list(nest.flatten(new_states))
            if keep is None:
                return output, new_states
            previous = A.zeros_like(output) if self.zero_output_for_mask else carry[0]
            return (_where(keep, output, previous),
                    [_where(keep, new, old) for new, old in zip(new_states, carry[1])])
        width = getattr(cell, "output_size", sizes[0])
        first = A.zeros(A.stack([batch, width]), dtype=sequences.dtype)
        outputs, finals = scan(step, time_major, initializer=(first, states))
        if isinstance(cell, _Cell):
            cell._masks = (None, None)
        output = A.transpose(outputs, [1, 0, 2]) if self.return_sequences else outputs[-1]
        if not self.return_state:
            return output
        return [output] + [s[-1] for s in finals]

    def get_initial_state(self, batch_size):
        """The zero states for a batch (the cell's own ``get_initial_state`` if it has one)."""
        own = getattr(self.cell, "get_initial_state", None)
        if own is not None:
            return own(batch_size=batch_size)
        return _zero_states(self.cell.state_size, batch_size)

    def get_config(self):
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards,
                "unroll": self.unroll, "zero_output_for_mask": self.zero_output_for_mask}


def _rnn_layer(class_name, cell_class, doc):
    def __init__(self, units, *args, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, zero_output_for_mask=False,
                 **kwargs):
        base_kwargs = {k: kwargs.pop(k) for k in ("name", "dtype", "trainable", "input_shape")
                       if k in kwargs}
        # (Keras names the cell itself: lstm_1/lstm_cell/kernel)
        cell = cell_class(units, *args, dtype=base_kwargs.get("dtype"),
                          name=snake_case(cell_class.__name__), **kwargs)
        RNN.__init__(self, cell, return_sequences=return_sequences, return_state=return_state,
                     go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                     zero_output_for_mask=zero_output_for_mask, **base_kwargs)

    def __getattr__(self, name):  # units, activation... are the cell's
        if name.startswith("_") or name == "cell":
            raise AttributeError(name)
        return getattr(self.cell, name)

    def get_config(self):
        config = {k: v for k, v in self.cell.get_config().items()
                  if k not in ("name", "trainable", "dtype")}
        return {**RNN.get_config(self), **config}

    def from_config(cls, config):
        return cls(**config)
    return type(class_name, (RNN,), {"__init__": __init__, "__getattr__": __getattr__,
                                     "get_config": get_config,
                                     "from_config": classmethod(from_config),
                                     "__doc__": doc, "__module__": __name__})


SimpleRNN = _rnn_layer("SimpleRNN", SimpleRNNCell, "A fully connected RNN (SimpleRNNCell).")
LSTM = _rnn_layer("LSTM", LSTMCell, "Long short-term memory (LSTMCell).")
GRU = _rnn_layer("GRU", GRUCell, "Gated recurrent unit (GRUCell).")


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and a copy of it backwards and merges their outputs
    (``merge_mode``: "concat", "sum", "mul", "ave" or None for the pair). Both layers give
    zeros at masked steps when they return sequences (Keras forces
    ``zero_output_for_mask``), so the merged masked steps are zeros."""

    supports_masking = True

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None,
                 **kwargs):
        super().__init__(**kwargs)
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should "
                             f"be one of {{'sum', 'mul', 'ave', 'concat', None}}")
        if weights is not None:
            raise NotImplementedError("Bidirectional(weights=...) is not supported: call "
                                      "set_weights once built")
        config = layer.get_config()
        self.forward_layer = type(layer).from_config(
            {**config, "name": "forward_" + layer.name})
        if backward_layer is None:
            backward_layer = type(layer).from_config(
                {**config, "name": "backward_" + layer.name,
                 "go_backwards": not layer.go_backwards})
        elif backward_layer.go_backwards == layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different "
                             "`go_backwards` value.")
        self.backward_layer = backward_layer
        for each in (self.forward_layer, self.backward_layer):
            if getattr(each, "zero_output_for_mask", None) is not None:
                each.zero_output_for_mask = each.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state

    def compute_mask(self, inputs, mask=None):
        """The input's mask for a sequence output (for each of the pair without a merge)."""
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask = mask if self.merge_mode else [mask, mask]
        else:
            output_mask = None if self.merge_mode else [None, None]
        if not self.return_state:
            return output_mask
        sizes = self.forward_layer.cell.state_size
        states = [None] * (2 * len(sizes) if isinstance(sizes, (list, tuple)) else 2)
        return (output_mask if isinstance(output_mask, list) else [output_mask]) + states

    def call(self, sequences, initial_state=None, mask=None, training=False):
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        forward = self.forward_layer(sequences, initial_state=forward_state, mask=mask,
                                     training=training)
        backward = self.backward_layer(sequences, initial_state=backward_state, mask=mask,
                                       training=training)
        states = []
        if self.return_state:
            forward, states = forward[0], forward[1:] + backward[1:]
            backward = backward[0]
        if self.return_sequences:  # the backward outputs in input order
            backward = A.reverse(backward, [1])
        if self.merge_mode == "concat":
            output = A.concat([forward, backward], axis=-1)
        elif self.merge_mode == "sum":
            output = M.add(forward, backward)
        elif self.merge_mode == "ave":
            output = M.multiply(M.add(forward, backward), 0.5)
        elif self.merge_mode == "mul":
            output = M.multiply(forward, backward)
        else:
            output = [forward, backward]
        if not self.return_state:
            return output
        return (output if isinstance(output, list) else [output]) + states

    def get_config(self):
        return {**super().get_config(), "merge_mode": self.merge_mode}


class TimeDistributed(Layer):
    """Applies ``layer`` to every time step of ``[batch, time, ...]`` inputs; a Keras mask
    ``[batch, time, ...]`` is given step by step to a layer whose ``call`` takes one, and
    passes on."""

    supports_masking = True

    def __init__(self, layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer

    def _check_mask(self, inputs, mask):
        dims, mask_dims = inputs.shape.as_list(), mask.shape.as_list()
        if len(mask_dims) < 2:
            raise ValueError(f"The `mask` passed to the `TimeDistributed` layer must be at "
                             f"least 2D (e.g., `(batch_size, timesteps)`), but it has "
                             f"{len(mask_dims)} dimension(s) with shape {tuple(mask_dims)}.")
        if any(a is not None and b is not None and a != b
               for a, b in zip(dims[:2], mask_dims[:2])):
            raise ValueError(f"The `mask` passed to the `TimeDistributed` layer has a shape "
                             f"{tuple(mask_dims)} that is incompatible with the input shape "
                             f"{tuple(dims)}. The first two dimensions of the mask (batch size "
                             f"and timesteps) must match the input's first two dimensions. "
                             f"Expected mask shape prefix: ({dims[0]}, {dims[1]}).")

    def call(self, inputs, training=None, mask=None):
        shape = A.shape(inputs)
        merged = A.reshape(inputs, A.concat([[-1], shape[2:]], axis=0))
        kwargs = {}
        if mask is not None:
            self._check_mask(inputs, mask)
            if "mask" in self.layer._call_params():
                kwargs["mask"] = A.reshape(mask, A.concat([[-1], A.shape(mask)[2:]], axis=0))
        with wrapped_call():
            outputs = self.layer(merged, training=training, **kwargs)
        out_shape = A.shape(outputs)
        restored = A.reshape(outputs, A.concat([shape[:2], out_shape[1:]], axis=0))
        dims = inputs.shape.as_list()[:2] + outputs.shape.as_list()[1:]
        return A.ensure_shape(restored, dims) if outputs.shape.rank is not None else restored
