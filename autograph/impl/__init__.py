"""The converter's user-facing entry points (``to_code``, ``convert``, ``do_not_convert``)."""
