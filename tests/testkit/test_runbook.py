"""The runbook's blocks as the drill reads them: a shell block after its ``<!-- drill: name -->`` mark, the
mark invisible on the page; a block without one counted, and a name given twice refused."""

from __future__ import annotations

import pytest

from testkit import runbook

PAGE = """# A page

<!-- drill: back-up -->
```sh
pg_dump --file="$BACKUP" "$URL"
```

Words between.

```sh
echo unnamed
```

<!-- drill: check -->
```sh
diff a b
echo "```sh inside a line is no block"
```
"""


def test_named_blocks_are_read_whole_and_unnamed_ones_counted(tmp_path):
    page = tmp_path / "operations.md"
    page.write_text(PAGE)
    assert runbook.blocks(page) == {
        "back-up": 'pg_dump --file="$BACKUP" "$URL"\n',
        "check": 'diff a b\necho "```sh inside a line is no block"\n',
    }
    assert runbook.unnamed_blocks(page) == 1


def test_a_name_given_twice_is_refused(tmp_path):
    page = tmp_path / "operations.md"
    page.write_text(PAGE.replace("drill: check", "drill: back-up"))
    with pytest.raises(ValueError, match="two blocks named back-up"):
        runbook.blocks(page)
