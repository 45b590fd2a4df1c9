"""torch.compile of a float64 Adam run: its steps are float32-precise. Eagerly, Adam's first step
from 0 with lr 0.01 and gradient 0.79 is -0.00999999987356216 (lr g / (|g| + eps)); compiled it
is -0.009999933512131997, 6.6e-6 apart, the error of 1 - 0.999 in float32 (optax and Keras on
TensorFlow make the same). amsgrad=True makes no difference."""
import sys

import torch


def run(param, grads, amsgrad):
    p = param.clone().requires_grad_(True)
    optimizer = torch.optim.Adam([p], lr=0.01, betas=(0.9, 0.999), eps=1e-8, amsgrad=amsgrad)
    out = []
    for g in grads:
        p.grad = g.clone()
        optimizer.step()
        out.append(p.detach().clone())
    return torch.stack(out)


amsgrad = "amsgrad" in sys.argv[1:]
param = torch.tensor([0.0], dtype=torch.float64)
grads = torch.full((3, 1), 0.7909024818171075, dtype=torch.float64)
print("eager   ", run(param, grads, amsgrad)[:, 0].tolist())
print("compiled", torch.compile(run)(param, grads, amsgrad)[:, 0].tolist())
