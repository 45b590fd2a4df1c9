"""keras.layers.LSTM and keras.layers.GRU run with PyTorch's weights: the one Keras recurrent layer
that the tensorflow adapter (tf.keras is Keras 3) and the keras adapter (on every backend) both call.

One layer per direction, as keras.layers.Bidirectional builds them, stacked as torch.nn.LSTM and
GRU stack their layers (adapters.base.stacked_rnn). The weights convert as lstm_weights and
gru_weights say; the layers are stateless: keras.Layer.stateless_call takes them on every call.
"""
import functools

from adapters.base import stacked_rnn
from adapters.keras.layers import outside_trace, stateless_outputs
from vocabulary.params import rnn_suffix


def run(kind: str, x, states, params, num_layers, bidirectional, batch_first, dtype: str, training: bool,
        **config):
    """The vocabulary's lstm (output, h_n, c_n) or gru (output, h_n) by keras.layers.LSTM / GRU on
    Keras' current backend, called with `training=` as its users call it; `states` the initial
    (h0, c0) or (h0,), None for Keras' zeros; `config` the layer's arguments that the spec gives
    (the rest are Keras' defaults: reset_after)."""
    from keras import ops

    hidden = params["weight_hh_l0"].shape[1]
    seq = x if batch_first else ops.transpose(x, (1, 0, 2))
    weights = {"LSTM": lstm_weights, "GRU": gru_weights}[kind]

    def direction(seq, layer, d, k):
        cell = _layer(kind, hidden, bool(d), dtype, seq.shape[-1], tuple(sorted(config.items())))
        initial = None if states is None else [s[k] for s in states]
        layout = {"reset_after": cell.reset_after} if kind == "GRU" else {}  # the layer's, default or given
        (out, *final), _ = stateless_outputs(cell, weights(params, rnn_suffix(layer, d), **layout),
                                             cell.non_trainable_variables, seq, initial_state=initial,
                                             training=training)
        return ((ops.flip(out, 1) if d else out), *final)  # go_backwards returns reversed time order

    seq, *finals = stacked_rnn(seq, num_layers, bidirectional, direction, lambda outs: ops.concatenate(outs, -1))
    return ((seq if batch_first else ops.transpose(seq, (1, 0, 2))), *(ops.stack(f) for f in finals))


def lstm_weights(params: dict, suffix: str) -> list:
    """One direction's PyTorch LSTM weights as keras.layers.LSTM's [kernel, recurrent_kernel,
    bias]: the same gate order (i, f, c = g, o), kernels transposed to [in, 4H], and one bias
    b_ih + b_hh."""
    from keras import ops

    return [ops.transpose(params[f"weight_ih{suffix}"]), ops.transpose(params[f"weight_hh{suffix}"]),
            params[f"bias_ih{suffix}"] + params[f"bias_hh{suffix}"]]


KERAS_GRU_ORDER = (1, 0, 2)  # Keras' gate blocks z, r, h are PyTorch's blocks r, z, n in this order


def gru_weights(params: dict, suffix: str, reset_after: bool = True) -> list:
    """One direction's PyTorch GRU weights as keras.layers.GRU's [kernel, recurrent_kernel, bias]:
    the gate blocks reordered (PyTorch r, z, n; Keras z, r, h), kernels transposed to [in, 3H];
    with reset_after the bias is [2, 3H] (input bias, recurrent bias: the recurrent one sits
    inside r * (W_hn h + b_hn) as PyTorch's does), without it one bias b_ih + b_hh."""
    from keras import ops

    def reordered(w):
        blocks = ops.split(w, 3, axis=0)
        return ops.concatenate([blocks[i] for i in KERAS_GRU_ORDER], axis=0)

    b_ih, b_hh = reordered(params[f"bias_ih{suffix}"]), reordered(params[f"bias_hh{suffix}"])
    return [ops.transpose(reordered(params[f"weight_ih{suffix}"])),
            ops.transpose(reordered(params[f"weight_hh{suffix}"])),
            ops.stack([b_ih, b_hh]) if reset_after else b_ih + b_hh]


def _layer(kind: str, hidden: int, backwards: bool, dtype: str, features: int, config: tuple):
    """A built keras.layers.LSTM / GRU per configuration, made once, outside any compiler's trace,
    as every keras.layers layer of this adapter is (adapters/keras/layers.py, outside_trace)."""
    return outside_trace(f"keras.layers.{kind}", _built_layer, kind, hidden, backwards, dtype, features, config)


@functools.cache
def _built_layer(kind: str, hidden: int, backwards: bool, dtype: str, features: int, config: tuple):
    import keras

    cell = getattr(keras.layers, kind)(hidden, return_sequences=True, return_state=True, go_backwards=backwards,
                                       dtype=dtype, **dict(config))
    cell.build((None, None, features))
    return cell
