"""paddle.nn.LSTM's (GRU alike) reverse pass runs in training mode when every weight's gradient is
asked for; paddle.grad with respect to the input alone raises ValueError "(InvalidArgument)
Required tensor shall not be nullptr" in its RnnGradNode, and after layer.eval() it raises
RuntimeError whichever tensors it differentiates."""
import paddle

paddle.seed(0)
layer, x = paddle.nn.LSTM(3, 4), paddle.randn([2, 5, 3])
x.stop_gradient = False
for mode in ("train", "eval"):
    getattr(layer, mode)()
    for name, wrt in (("every weight and x", [x, *layer.parameters()]), ("x alone", [x])):
        try:
            paddle.grad(layer(x)[0].sum(), wrt)
            print(mode, name, "ok")
        except (ValueError, RuntimeError) as exc:
            print(mode, name, type(exc).__name__, str(exc).strip().splitlines()[0][:80])
