from tests.check_layers import violations


def test_imports_point_down_the_layers():
    assert violations() == []
