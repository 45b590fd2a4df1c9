"""paddle.nn.LSTM (GRU alike) and MultiHeadAttention made inside a function that
paddle.jit.to_static(full_graph=True) translates fail when the program runs: RuntimeError
"(NotFound) Cannot find dropout_state__non_persistable in scope" and "Cannot find linear_3.b_0 in
scope". The same functions run eagerly."""
import paddle


def lstm_program(x):
    return paddle.nn.LSTM(3, 4)(x)[0]


def attention_program(x):
    return paddle.nn.MultiHeadAttention(4, 2)(x)


for program, x in ((lstm_program, paddle.ones([2, 5, 3])), (attention_program, paddle.ones([2, 5, 4]))):
    print(program(x).shape)  # runs eagerly
    try:
        print(paddle.jit.to_static(program, full_graph=True)(x).shape)
    except RuntimeError as exc:  # both raise here
        print(str(exc).strip().splitlines()[-3].strip())
