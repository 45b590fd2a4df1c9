"""torch.compile of a float64 Adagrad run: its step size lr / (1 + (step - 1) lr_decay) is a
float32 number. With p = g = 7.086e-66, lr 0.1 and eps 1e-10 the step is lr g / eps: eagerly
p becomes -7.086056668880142e-57, compiled -7.086056774470614e-57, 1.49e-8 apart: the error of
0.1 in float32 (0.10000000149). Compiled, torch.optim keeps the step count as a float32 tensor
(_get_scalar_dtype), so clr computed from it is float32 (inductor: lr times the float32
reciprocal of the denominator), as Adam's bias corrections are (compiled_adam_float64.py)."""
import torch


def run(param, grads):
    p = param.clone().requires_grad_(True)
    optimizer = torch.optim.Adagrad([p], lr=0.1, eps=1e-10)
    out = []
    for g in grads:
        p.grad = g.clone()
        optimizer.step()
        out.append(p.detach().clone())
    return torch.stack(out)


param = torch.full((5,), 7.086056675966198e-66, dtype=torch.float64)
grads = torch.full((1, 5), 7.086056675966198e-66, dtype=torch.float64)
print("eager   ", run(param, grads)[:, 0].tolist())
print("compiled", torch.compile(run)(param, grads)[:, 0].tolist())
