"""The op API: each function runs eagerly on numpy or records a node."""
