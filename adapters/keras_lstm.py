"""keras.layers.LSTM run with PyTorch's LSTM weights: the one Keras LSTM that the tensorflow
adapter (tf.keras is Keras 3) and the keras adapter (on every backend) both call.

One layer per direction, as keras.layers.Bidirectional builds them, stacked as torch.nn.LSTM
stacks its layers (adapters.base.stacked_lstm). The weights convert as keras_weights says; the
layers are stateless: keras.Layer.stateless_call takes them on every call.
"""
import functools

from adapters.base import lstm_suffix, stacked_lstm


def run(x, h0, c0, params, num_layers, bidirectional, batch_first, dtype: str):
    """The vocabulary's lstm (output, h_n, c_n) by keras.layers.LSTM on Keras' current backend."""
    from keras import ops

    hidden = params["weight_hh_l0"].shape[1]
    seq = x if batch_first else ops.transpose(x, (1, 0, 2))

    def direction(seq, layer, d, k):
        cell = _layer(hidden, bool(d), dtype, seq.shape[-1])
        state = None if h0 is None else [h0[k], c0[k]]  # None: Keras' zero initial state
        (out, h, c), _ = cell.stateless_call(keras_weights(params, lstm_suffix(layer, d)),
                                             cell.non_trainable_variables, seq, initial_state=state)
        return (ops.flip(out, 1) if d else out), h, c  # go_backwards returns reversed time order

    seq, h_n, c_n = stacked_lstm(seq, num_layers, bidirectional, direction, lambda outs: ops.concatenate(outs, -1))
    return (seq if batch_first else ops.transpose(seq, (1, 0, 2))), ops.stack(h_n), ops.stack(c_n)


def keras_weights(params: dict, suffix: str) -> list:
    """One direction's PyTorch LSTM weights as keras.layers.LSTM's [kernel, recurrent_kernel,
    bias]: the same gate order (i, f, c = g, o), kernels transposed to [in, 4H], and one bias
    b_ih + b_hh."""
    from keras import ops

    return [ops.transpose(params[f"weight_ih{suffix}"]), ops.transpose(params[f"weight_hh{suffix}"]),
            params[f"bias_ih{suffix}"] + params[f"bias_hh{suffix}"]]


@functools.cache
def _layer(hidden: int, backwards: bool, dtype: str, features: int):
    """A built keras.layers.LSTM per configuration, made once: a layer built anew on every call
    would create variables inside tf.function's retraces, which tf.function refuses (the
    benchmarks' compiled mode)."""
    import keras

    cell = keras.layers.LSTM(hidden, return_sequences=True, return_state=True, go_backwards=backwards, dtype=dtype)
    cell.build((None, None, features))
    return cell
