"""Optimizers for the guide's training loops: ``SGD`` and ``Adam`` (Keras's update rules).

As in Keras 3, the ``iterations`` counter and a float learning rate are
Variables made with the optimizer, and one slot Variable per trained variable
and slot name is made the first time it applies gradients. Inside a
tf.function that happens during the first trace, which the "Variables only on
the first call" rule allows; a second optimizer passed to the same Function
would create Variables on a later trace and gets TensorFlow's ValueError (the
documented fix: one Function, or one ConcreteFunction, per optimizer).

Checkpoints track an optimizer as Keras 3 does: ``_iterations``,
``_learning_rate`` and the list ``_variables`` (``optimizer.variables``, so a
slot's key is ``optimizer/_variables/N``); creating state calls
``notify_changed`` so that slots made after ``restore`` get their
checkpointed values.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime import context
from runtime.gradients.util import dense, is_sparse
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.module import notify_changed
from runtime.ops.core import convert_to_tensor
from runtime.origin import current_origin


class Optimizer:
    """Base class: gradient application, slot Variables, the ``iterations`` counter."""

    _slot_initial: dict[str, float] = {}  # a slot's starting value, when not zero
    _slot_labels: dict[str, str] = {}  # a slot's name in its variable's name, when not its own

    def __init__(self, learning_rate=0.001, name: str | None = None, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None):
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can "
                             f"be set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}")
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, \
            global_clipnorm
        if name is None:  # Keras 3's names: adam, adam_1, rm_sprop...
            from runtime.keras.layers.base import snake_case, unique_name
            name = unique_name(snake_case(type(self).__name__))
        self._name = name
        self._schedule = learning_rate if callable(learning_rate) else None
        self._initial_rate = None if callable(learning_rate) else learning_rate
        self._learning_rate = None  # a Variable made with the optimizer, as in Keras 3
        self._iterations = None
        self._slots: dict[int, dict[str, object]] = {}
        self._trained: list = []  # the variables it made slots for, in order (Keras 3's
        # `_trainable_variables`, which checkpoints track)
        self._slot_names: tuple[str, ...] = ()
        if context.current_graph() is None:
            # Keras 3 makes its step counter and rate with the optimizer, so the first traced
            # step of a train function creates no variable (and is traced once) unless slots
            # are made.
            _ = self.iterations, self.learning_rate

    @property
    def name(self) -> str:
        """Keras 3's optimizer name (``adam``, ``adam_1``...), the first part of its variables'
        paths."""
        return self._name

    # -- state ------------------------------------------------------------------------
    def _state_variable(self, value, name: str):
        """A non-trainable Keras variable ``name`` under this optimizer's name (its path)."""
        from runtime.keras.layers.base import KerasVariable, keras_name_scope
        with keras_name_scope(self._name):
            return KerasVariable(value, name=name, trainable=False)

    @property
    def iterations(self):
        """How many times gradients were applied (an int64 Variable, made on first use)."""
        if self._iterations is None:
            self._iterations = self._state_variable(np.int64(0), "iteration")
            notify_changed(self)
        return self._iterations

    @property
    def learning_rate(self):
        """The rate of the next step: a float32 Variable (read by every step, so setting it
        after a train function was traced changes its later steps, as in Keras 3), or a
        schedule's value at ``iterations``."""
        if self._schedule is not None:
            return self._schedule(self.iterations)
        if self._learning_rate is None:
            self._learning_rate = self._state_variable(
                np.float32(self._initial_rate), "learning_rate")
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if callable(value):
            self._schedule = value
            return
        if self._schedule is not None:
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` object as its "
                "`learning_rate` constructor argument, hence its learning rate is not settable. "
                "If you need the learning rate to be settable, you should instantiate the "
                "optimizer with a float `learning_rate` argument.")
        self.learning_rate.assign(value)

    def get_slot(self, var, slot_name: str):
        return self._slots[var._resource][slot_name]

    @property
    def variables(self) -> list:
        """The optimizer's state (a property, as in Keras 3): its step counter, its rate, then
        the slots."""
        found = [v for v in (self._iterations, self._learning_rate) if v is not None]
        for slots in self._slots.values():
            found.extend(slots.values())
        return found

    def _trackable_children(self) -> dict:
        """Keras 3's edges: the step counter, the rate Variable, the variables it trains and
        all its own variables (their index in ``variables`` names a slot in a checkpoint)."""
        children = {"_iterations": self._iterations, "_learning_rate": self._learning_rate}
        children.update(self._extra_state())
        children = {k: v for k, v in children.items() if v is not None}
        children["_trainable_variables"] = list(self._trained)
        children["_variables"] = self.variables
        return children

    def _extra_state(self) -> dict:
        """Further state Variables by attribute name (Nadam's ``_u_product``)."""
        return {}

    def _create_all_weights(self, var_list) -> None:
        _ = self.iterations
        created = False
        for v in var_list:
            if v._resource in self._slots:
                continue
            # Keras 3's names: sequential_dense_kernel_momentum, a_0_momentum (tf.Variable a:0)
            base = getattr(v, "path", None) or str(v.name).replace(":", "_")
            self._trained.append(v)
            self._slots[v._resource] = {s: self._make_slot(v, s, base)
                                        for s in self._slot_names}
            created = created or bool(self._slot_names)
        if created:
            notify_changed(self)

    def _make_slot(self, v, slot: str, base: str):
        """Slot ``slot`` of ``v``: v's shape and dtype, named ``<v's path>_<slot label>``."""
        return self._state_variable(
            np.full(v.shape.as_list(), self._slot_initial.get(slot, 0.0),
                    dtype=v.dtype.numpy_dtype),
            f"{base.replace('/', '_')}_{self._slot_labels.get(slot, slot)}")

    # -- applying -----------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, name: str | None = None):
        """Updates each variable from its gradient; pairs with a None gradient are skipped."""
        pairs = list(grads_and_vars)
        for g, v in pairs:
            if not hasattr(v, "assign_sub"):
                raise TypeError(f"apply_gradients expects (gradient, tf.Variable) pairs, got a "
                                f"{type(v).__name__} at {current_origin()}")
        pairs = [(g, v) for g, v in pairs if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable at {current_origin()}: "
                             "check that the loss depends on the variables and was computed "
                             "inside the GradientTape.")
        self._create_all_weights([v for _, v in pairs])
        grads = self._clipped([g if is_sparse(g) else convert_to_tensor(g) for g, _ in pairs])
        for g, (_, v) in zip(grads, pairs):
            if g.dtype != v.dtype:
                raise TypeError(f"The gradient of {v.name} has dtype {g.dtype.name} but the "
                                f"variable has dtype {v.dtype.name} (at {current_origin()})")
            if self.weight_decay:  # Keras 3: decay by lr * weight_decay, then the update
                decay = M.cast(convert_to_tensor(float(self.weight_decay),
                                                 dtype=dtypes.float64), v.dtype)
                v.assign_sub(M.multiply(v, M.multiply(self._lr(v), decay)))
            self._apply_dense(g, v)
        for _, v in pairs:  # Keras 3: each variable's constraint, after the updates
            if v.constraint is not None:
                v.assign(v.constraint(v))
        return self.iterations.assign_add(np.int64(1))

    def _clipped(self, grads: list) -> list:
        """Keras 3's gradient clipping: ``clipnorm`` and ``clipvalue`` clip a sparse gradient's
        rows; ``global_clipnorm`` measures rows but scales to a dense tensor (as Keras does)."""
        if self.clipnorm is not None:
            return [A.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.clipvalue is not None:
            c = self.clipvalue
            return [on_values(lambda x: A.clip_by_value(x, -c, c), g) for g in grads]
        if self.global_clipnorm is not None and grads:
            return [dense(g) for g in A.clip_by_global_norm(grads, self.global_clipnorm)[0]]
        return grads

    def minimize(self, loss, var_list, tape=None):
        """Computes the gradient of ``loss`` (a callable, or a tensor with ``tape``) and applies it."""
        from runtime.gradients import GradientTape
        if callable(loss):
            with GradientTape() as tape:
                value = loss()
        elif tape is None:
            raise ValueError("`tape` is required when a `Tensor` loss is passed to minimize")
        else:
            value = loss
        var_list = list(var_list() if callable(var_list) else var_list)
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def _lr(self, v):
        return M.cast(convert_to_tensor(self.learning_rate, dtype_hint=v.dtype), v.dtype)

    def _apply_dense(self, g, v) -> None:
        raise NotImplementedError


def on_values(fn, g):
    """``fn(g)``, or for an IndexedSlices the same rows with ``fn`` of their values."""
    if is_sparse(g):
        from runtime.ops.type_ops import IndexedSlices
        return IndexedSlices(fn(g.values), g.indices, g.dense_shape)
    return fn(g)


def rowwise(fn, g):
    """``fn(g)`` for an elementwise ``fn``, applied to an IndexedSlices' rows before duplicate
    rows add up: Keras 3's sparse ops do so (its Adam squares each gathered row's gradient)."""
    return dense(on_values(fn, g))


class SGD(Optimizer):
    """Gradient descent, with optional (Nesterov) momentum: Keras's ``SGD``."""

    def __init__(self, learning_rate=0.01, momentum: float = 0.0, nesterov: bool = False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 name: str | None = None):
        super().__init__(learning_rate, name, weight_decay, clipnorm, clipvalue, global_clipnorm)
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"`momentum` must be between [0, 1], got {momentum}")
        self._momentum = float(momentum)
        self._nesterov = bool(nesterov)
        self._slot_names = ("momentum",) if momentum else ()

    def _apply_dense(self, g, v) -> None:
        lr = self._lr(v)
        if not self._momentum and is_sparse(g):
            # Keras 3 scatter-subtracts the rows one by one: a repeated row is updated twice,
            # each rounded (1.0 - 0.1 - 0.1 is 0.79999995), not once with their sum
            v.scatter_sub(on_values(lambda values: M.multiply(values, lr), g))
            return
        g = dense(g)
        if not self._momentum:
            v.assign_sub(M.multiply(lr, g))
            return
        m = self.get_slot(v, "momentum")
        new_m = M.subtract(M.multiply(m, self._momentum), M.multiply(lr, g))
        m.assign(new_m)
        if self._nesterov:
            v.assign_add(M.subtract(M.multiply(new_m, self._momentum), M.multiply(lr, g)))
        else:
            v.assign_add(new_m)


class Adam(Optimizer):
    """Adam with Keras's defaults and its bias-corrected step size."""

    _slot_labels = {"m": "momentum", "v": "velocity", "vhat": "velocity_hat"}

    def __init__(self, learning_rate=0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name: str | None = None):
        super().__init__(learning_rate, name, weight_decay, clipnorm, clipvalue, global_clipnorm)
        self._beta_1, self._beta_2, self._epsilon = float(beta_1), float(beta_2), float(epsilon)
        self.amsgrad = bool(amsgrad)  # (the step divides by the largest second moment seen)
        self._slot_names = ("m", "v") + (("vhat",) if amsgrad else ())

    def _apply_dense(self, g, var) -> None:
        """Keras 3's step, operation for operation (``1 - beta_1`` is a Python float)."""
        dtype = var.dtype
        step = M.cast(M.add(self.iterations, np.int64(1)), dtype)

        def const(value):
            return M.cast(convert_to_tensor(value, dtype=dtypes.float64), dtype)
        b1_power, b2_power = M.pow(const(self._beta_1), step), M.pow(const(self._beta_2), step)
        alpha = M.realdiv(M.multiply(self._lr(var), M.sqrt(M.subtract(1.0, b2_power))),
                          M.subtract(1.0, b1_power))
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        new_m = M.add(m, M.multiply(M.subtract(dense(g), m), const(1 - self._beta_1)))
        new_v = M.add(v, M.multiply(M.subtract(rowwise(M.square, g), v), const(1 - self._beta_2)))
        m.assign(new_m)
        v.assign(new_v)
        if self.amsgrad:
            v_hat = self.get_slot(var, "vhat")
            new_v = M.maximum(v_hat, new_v)
            v_hat.assign(new_v)
        var.assign_sub(M.realdiv(M.multiply(new_m, alpha), M.add(M.sqrt(new_v), self._epsilon)))
