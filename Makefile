# Every target that needs the package installs it into .venv by itself.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install demo test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(PY) examples/tour.py

test: $(STAMP)
	$(PY) -m pytest tests

bench: $(STAMP)
	$(PY) -m benchmarks

lint: $(STAMP)
	$(PY) -m compileall -q autograph runtime graph tests benchmarks examples
	$(PY) tests/check_layers.py

clean:
	rm -rf $(VENV) build *.egg-info
