"""Vocabulary layer: the engine's numeric precisions ("fp32", "tf32", "bf16") and the one check of a precision
name that every door (engine factory, CLI, fit, Spark job, Java facade) uses. Imports errors only."""
from .errors import ArgumentError

PRECISIONS = ("fp32", "tf32", "bf16")
BF16_MIN_CC = 80        # bf16 tensor cores (mma.sync m16n8k16 .bf16): compute capability 8.0 and newer


def check_precision(value, who="precision"):
    """The precision name `value` (case and surrounding blanks ignored); ArgumentError naming `who` and listing
    the choices for anything else."""
    name = value.strip().lower() if isinstance(value, str) else None
    if name not in PRECISIONS:
        raise ArgumentError(f"{who}: unknown precision {value!r}; expected one of {list(PRECISIONS)}")
    return name
