"""Small programs for the differential suite: each runs as Python and converted.

``@program(inputs, staged=True)`` registers a function with example inputs
(tuples of ints). ``staged=False`` marks programs whose Python semantics a
graph cannot have (lists growing in a loop, None results...): they are
checked in Python mode only. ``staged=REFUSED``: a Python loop that breaks or
returns on a tensor condition, which staging refuses as TensorFlow does.
"""
REFUSED = "refused"  # (or a return inside a staged loop: refused by TensorFlow too)
PROGRAMS = []


def program(*inputs, staged=True):
    def register(fn):
        PROGRAMS.append((fn, [i if isinstance(i, tuple) else (i,) for i in inputs], staged))
        return fn
    return register


# -- if / elif / else ---------------------------------------------------------------------------

@program(-5, 0, 5)
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


@program(-5, 0, 5, 50)
def sign_assign(x):
    if x > 10:
        s = 2
    elif x > 0:
        s = 1
    elif x == 0:
        s = 0
    else:
        s = -1
    return s * 10


@program((1, 2), (2, 1), (3, 3), (-1, 5))
def nested_if(a, b):
    r = 0
    if a > 0:
        if b > a:
            r = b - a
        else:
            r = a - b
            if r == 0:
                r = 100
    else:
        r = a * b
    return r


@program(-3, 3)
def if_without_else(x):
    y = x
    if x < 0:
        y = -x
    return y + 1


@program(-3, 3)
def if_modifies_two(x):
    a, b = 1, 2
    if x > 0:
        a = a + x
        b = b * x
    else:
        a, b = b, a
    return a * 100 + b


@program(1, 7, 12)
def if_reads_before_write(x):
    y = 3
    if x > 5:
        y = y + x
    else:
        z = y * 2
        y = z
    return y


@program(-2, 2)
def if_augassign(x):
    total = 10
    if x > 0:
        total += x
    else:
        total -= x
    total *= 2
    return total


@program(-4, 4)
def if_expression_value(x):
    return x * 2 if x > 0 else x * 3


@program(-4, 0, 4)
def nested_if_expression(x):
    return 1 if x > 0 else (0 if x == 0 else -1)


@program((1, 2), (5, 3), (-1, -2))
def max_of_two(a, b):
    m = a
    if b > m:
        m = b
    return m


@program((1, 2, 3), (3, 2, 1), (2, 3, 1), (2, 2, 2))
def max_of_three(a, b, c):
    if a >= b and a >= c:
        return a
    if b >= a and b >= c:
        return b
    return c


@program(-1, 0, 1)
def early_return_then_code(x):
    if x < 0:
        return -100
    y = x + 5
    if y > 5:
        return y * 2
    return y


@program(-3, 3)
def return_in_both_and_after(x):
    y = 0
    if x > 0:
        y = 1
        return y + x
    else:
        y = 2
    return y - x


# -- while ---------------------------------------------------------------------------------

@program(0, 1, 5)
def count_down(n):
    s = 0
    while n > 0:
        s = s + n
        n = n - 1
    return s


@program(0, 3, 10)
def while_with_break(n):
    i = 0
    s = 0
    while i < n:
        if s > 10:
            break
        s = s + i
        i = i + 1
    return s * 100 + i


@program(0, 3, 10)
def while_with_continue(n):
    i = 0
    s = 0
    while i < n:
        i = i + 1
        if i % 2 == 0:
            continue
        s = s + i
    return s


@program(0, 4, 20, staged=REFUSED)
def while_with_return(n):
    i = 0
    while i < n:
        if i * i > n:
            return i
        i = i + 1
    return -1


@program(0, 5, 9, staged=REFUSED)
def while_break_continue(n):
    i = 0
    s = 0
    while i < 100:
        i += 1
        if i > n:
            break
        if i % 3 == 0:
            continue
        s += i
    return s


@program(1, 6, 27)
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@program((12, 18), (7, 5), (9, 9))
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@program(0, 1, 10)
def fib(n):
    a, b = 0, 1
    i = 0
    while i < n:
        a, b = b, a + b
        i += 1
    return a


@program(2, 7)
def nested_while(n):
    i = 0
    s = 0
    while i < n:
        j = 0
        while j < i:
            s += j
            j += 1
        i += 1
    return s


@program(2, 7, staged=REFUSED)
def nested_while_break_inner(n):
    i = 0
    s = 0
    while i < n:
        j = 0
        while True:
            if j >= i:
                break
            s += 1
            j += 1
        i += 1
    return s


@program(3, 8, staged=REFUSED)
def nested_while_return_inner(n):
    i = 0
    while i < n:
        j = 0
        while j < n:
            if i * j == 6:
                return i * 10 + j
            j += 1
        i += 1
    return 0


@program(0, 5)
def while_zero_iterations_keep_value(n):
    x = 7
    while n < 0:
        x = x + 1
    return x


@program(0, 4)
def while_else(n):
    i = 0
    while i < n:
        i += 1
    else:
        i = i * 10
    return i


@program(0, 4, 8, staged=REFUSED)
def while_else_with_break(n):
    i = 0
    while i < 6:
        if i == n:
            break
        i += 1
    else:
        i = -1
    return i


@program(1, 5)
def while_local_temp(n):
    s = 0
    while n > 0:
        t = n * 2
        s = s + t
        n = n - 1
    return s


# -- for ------------------------------------------------------------------------------------

@program(0, 1, 6)
def for_range_sum(n):
    s = 0
    for i in range(n):
        s += i
    return s


@program(0, 3, 6)
def for_range_start_stop(n):
    s = 0
    for i in range(2, n):
        s = s * 2 + i
    return s


@program(0, 5, 9)
def for_range_step(n):
    s = 0
    for i in range(0, n, 3):
        s += i
    return s


@program(0, 5)
def for_range_negative_step(n):
    s = 0
    for i in range(n, 0, -1):
        s = s * 3 + i
    return s


@program(0, 4, 10)
def for_break(n):
    s = 0
    for i in range(n):
        if i == 5:
            break
        s += i
    return s


@program(0, 4, 10)
def for_continue(n):
    s = 0
    for i in range(n):
        if i % 2 == 1:
            continue
        s += i
    return s


@program(0, 4, 10, staged=REFUSED)
def for_return(n):
    for i in range(n):
        if i * 3 > 10:
            return i
    return -1


@program(0, 3, 7)
def for_else(n):
    s = 0
    for i in range(n):
        if i == 5:
            break
        s += 1
    else:
        s = 100
    return s


@program(0, 3, 5)
def nested_for(n):
    s = 0
    for i in range(n):
        for j in range(i):
            s += i * j
    return s


@program(0, 3, 5)
def nested_for_continue_break(n):
    s = 0
    for i in range(n):
        if i == 1:
            continue
        for j in range(n):
            if j > i:
                break
            s += j
    return s


@program(0, 3, 6, staged=REFUSED)
def nested_for_return(n):
    for i in range(n):
        for j in range(n):
            if i + j == 5:
                return i * 10 + j
    return -1


@program(2, 5)
def for_over_list_tensor_cond(n):
    s = 0
    for x in [3, 1, 4, 1, 5]:
        if x > n:
            s += x
    return s


@program(0, 2, 4, 9, staged=REFUSED)
def for_over_list_break_on_tensor(n):
    s = 0
    for x in [1, 2, 3, 4, 5]:
        if s > n:
            break
        s += x
    return s


@program(0, 3, 10, staged=REFUSED)
def for_over_list_return_on_tensor(n):
    for x in [1, 2, 3, 4, 5]:
        if x * x > n:
            return x
    return 0


@program(0, 1, 4, staged=False)  # staged: 'i' is undefined when the loop runs zero times
def for_target_used_after(n):
    total = 0
    for i in range(n):
        total += i
    return total * 10 + i


@program(1, 3)
def for_tuple_target_used_after(n):
    for a, b in [(1, 2), (3, 4)]:
        n = n + a
    return n * 100 + a * 10 + b


@program(0, 3)
def for_zero_iterations_keep_value(n):
    y = 5
    for i in range(n, n):
        y = i
    return y


@program(1, 4)
def for_tuple_unpack(n):
    s = 0
    for a, b in [(1, 2), (3, 4)]:
        s += a * n + b
    return s


@program(1, 4)
def for_enumerate_list(n):
    s = 0
    for i, x in enumerate([5, 6, 7]):
        s += i * x + n
    return s


@program(1, 4)
def for_zip_lists(n):
    s = 0
    for a, b in zip([1, 2, 3], [4, 5, 6]):
        if a + n > b:
            s += a
    return s


@program(0, 4)
def while_in_for(n):
    s = 0
    for i in range(n):
        j = i
        while j > 0:
            s += j
            j -= 2
    return s


@program(0, 4)
def for_in_while(n):
    s = 0
    k = n
    while k > 0:
        for i in range(k):
            s += i
        k -= 1
    return s


# -- logical expressions ------------------------------------------------------------------

@program((1, 1), (1, -1), (-1, 1), (-1, -1))
def and_or(a, b):
    if a > 0 and b > 0:
        return 1
    if a > 0 or b > 0:
        return 2
    return 3


@program((1, 1), (1, -1), (-1, 1), (-1, -1))
def not_and(a, b):
    r = 0
    if not a > 0 and not b > 0:
        r = 5
    elif not (a > 0 and b > 0):
        r = 6
    return r


@program((0, 1, 2), (3, 2, 1), (1, 1, 1))
def chained_and(a, b, c):
    if a < b and b < c and a < c:
        return 1
    return 0


@program(-3, 0, 3, 30)
def or_chain(x):
    return 1 if x < -2 or x == 0 or x > 20 else 0


@program(-1, 1)
def while_with_and(n):
    i = 0
    while i < 5 and n > 0:
        i += 1
    return i


@program(0, 3, staged=False)
def short_circuit_python(n):
    calls = []

    def check(v):
        calls.append(v)
        return v > 1

    r = check(n) and check(n + 1)
    return len(calls) * 10 + int(r)


# -- functions, calls, closures ------------------------------------------------------------

def _helper_square_if_positive(x):
    if x > 0:
        return x * x
    return -x


@program(-3, 3)
def calls_user_helper(x):
    return _helper_square_if_positive(x) + 1


@program(-3, 3)
def nested_function(x):
    def inner(y):
        if y > 0:
            return y + 10
        return y - 10
    return inner(x) * 2


@program(2, 5)
def closure_reads_outer(n):
    k = 3

    def add_k(v):
        return v + k
    s = 0
    for i in range(n):
        s = add_k(s)
    return s


@program(-2, 2)
def lambda_call(x):
    f = lambda v: v * 3 if v > 0 else v  # noqa: E731
    return f(x) + 1


@program(0, 4)
def default_args(n, step=2):
    s = 0
    i = 0
    while i < n:
        s += step
        i += 1
    return s


@program(-3, 3)
def kwargs_call(x):
    return _scaled(x, scale=3) + _scaled(scale=1, x=x)


def _scaled(x, scale=1):
    if x > 0:
        return x * scale
    return x


@program(3, 6, staged=False)
def recursion_python_only(n):
    return _fact(n)


def _fact(n):
    if n <= 1:
        return 1
    return n * _fact(n - 1)


# -- python-only semantics ----------------------------------------------------------------

@program(0, 3, staged=False)
def list_append(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


@program(0, 3, staged=False)
def print_in_loop(n):
    for i in range(n):
        print("step", i)
    return n


@program(-1, 1, staged=False)
def falls_off_end(x):
    if x > 0:
        return x


@program(2, 5, staged=False)
def dict_state(n):
    d = {"a": 0}
    for i in range(n):
        d["a"] += i
    return d["a"]


@program(2, 5, staged=False)
def string_building(n):
    s = ""
    for i in range(n):
        if i % 2 == 0:
            s += "x"
        else:
            s += "y"
    return s


@program(0, 2, staged=False)
def try_except_python(n):
    try:
        if n == 0:
            raise ValueError("zero")
        r = 10 // n
    except ValueError:
        r = -1
    return r


@program(2, 4, staged=False)
def with_statement(n):
    import contextlib
    with contextlib.nullcontext(n) as v:
        if v > 3:
            return v * 2
    return v


@program(0, 3, staged=False)
def global_counter(n):
    global _COUNTER
    _COUNTER = 0
    for i in range(n):
        _COUNTER += i
    return _COUNTER


_COUNTER = 0


@program(1, 4, staged=False)
def nonlocal_counter(n):
    count = 0

    def bump():
        nonlocal count
        count += 1
    for _ in range(n):
        bump()
    return count


@program(1, 3, staged=False)
def comprehension(n):
    return sum([i * i for i in range(n) if i % 2 == 0])


@program(-1, 1, staged=False)
def assert_python(x):
    assert x > 0, "x must be positive"
    return x


@program(3, 7, staged=False)
def attribute_state(n):
    class Box:
        count = 0
    b = Box()
    i = 0
    while i < n:
        b.count += i
        i += 1
    return b.count


# -- floats ---------------------------------------------------------------------------------

@program(0.5, 3.0)
def float_halving(x):
    steps = 0
    while x > 1.0:
        x = x / 2.0
        steps += 1
    return steps


@program(-2.5, 2.5)
def float_abs(x):
    if x < 0.0:
        x = -x
    return x * 2.0
