"""host/safe_write.py under CPython: a whole new file or the old one, never half; a failed write leaves the old
file and no temporary behind; a dead writer's temporary file is removed, a live one's kept. (The bundle is
killed in the middle of real writes by tests/node/store_faults.test.js.)"""
import os
import stat
import subprocess
import sys

import pytest

from hermes.host.safe_write import remove_leftover_temporaries, write_file_atomically
from hermes.js.modules_cpython import _NodeFs, _node_error


def temporaries(folder):
    return sorted(name for name in os.listdir(folder) if name.endswith('.tmp'))


def test_a_write_replaces_the_file_whole_and_private(tmp_path):
    target = tmp_path / 'deep' / 'store.json'
    write_file_atomically(str(target), '{"one": 1}')
    write_file_atomically(str(target), '{"two": 2}')
    assert target.read_text() == '{"two": 2}'
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert temporaries(target.parent) == []


@pytest.mark.parametrize('errno_name', ['ENOSPC', 'EROFS', 'EACCES'])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, errno_name):
    target = tmp_path / 'store.json'
    write_file_atomically(str(target), 'old')
    error_number = {'ENOSPC': 28, 'EROFS': 30, 'EACCES': 13}[errno_name]

    def refuse(path, text, encoding):  # as the kernel answers a write to a full disk or a read-only folder
        raise _node_error('write', path, OSError(error_number, os.strerror(error_number)))
    monkeypatch.setattr(_NodeFs, 'writeFileSync', staticmethod(refuse))
    with pytest.raises(Exception) as failed:
        write_file_atomically(str(target), 'new')
    assert failed.value.code == errno_name
    assert target.read_text() == 'old'
    assert temporaries(tmp_path) == []


def test_leftover_temporaries_of_dead_writers_go_and_a_live_writers_stay(tmp_path):
    target = tmp_path / 'store.json'
    target.write_text('whole')
    dead = subprocess.run([sys.executable, '-c', 'import os; print(os.getpid())'], capture_output=True, text=True)
    dead_pid = int(dead.stdout)  # a process that has ended
    (tmp_path / f'store.json.{dead_pid}-3.tmp').write_text('half')
    (tmp_path / 'store.json.tmp').write_text('half, from before writers named their files')
    (tmp_path / f'store.json.{os.getpid()}-1.tmp').write_text('being written')  # a live window's
    (tmp_path / 'other.json.123.tmp').write_text('not ours')
    assert remove_leftover_temporaries(str(target)) == 2
    assert temporaries(tmp_path) == sorted([f'store.json.{os.getpid()}-1.tmp', 'other.json.123.tmp'])
    assert target.read_text() == 'whole'
