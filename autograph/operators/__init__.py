"""What converted code calls, as ``ag__.<name>``: control flow, logic, loads, calls.

Each operator looks at its arguments: Python values get plain Python
semantics at near-zero cost; symbolic tensors get the runtime's staged
control flow.
"""
import os as _os

from runtime.origin import register_internal_dir as _register_internal_dir

from autograph.operators.call import converted, converted_call  # noqa: F401
from autograph.operators.contexts import with_context  # noqa: F401
from autograph.operators.control_flow import for_stmt, if_stmt, while_stmt  # noqa: F401
from autograph.operators.exceptions import assert_stmt, in_flight  # noqa: F401
from autograph.operators.frames import dir_, locals_  # noqa: F401
from autograph.operators.lists import list_append  # noqa: F401
from autograph.operators.logical import and_, compare_chain, if_exp, not_, or_  # noqa: F401
from autograph.operators.py_builtins import (abs_, enumerate_, float_, int_, len_,  # noqa: F401
                                             range_, zip_)
from autograph.operators.variables import Undefined, is_undefined, ld, ldu  # noqa: F401

# Frames of the converter and of these operators are never the user's code.
_register_internal_dir(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))))
