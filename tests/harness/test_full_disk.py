#!/usr/bin/env python3
"""Writers on a full disk and in a read-only place: compact --output
(and compact's own file in $TMPDIR without it),
dump --output and --results on a small tmpfs that is full, has room for
half of the output (the write fails part way) or for all but its last
partial page (only the final flush fails) exit 1 with one line naming the
file and the cause, and leave neither the file nor a temporary one; a
read-only place is refused before the run (exit 2).

The tmpfs is mounted in a private mount namespace (unshare -m), which needs
root; where that is impossible the test is skipped (exit 77) with a reason.

usage: test_full_disk.py EXE DB
"""
import os
import shutil
import subprocess
import sys
import tempfile

from harnesslib import fail, run

SKIP = 77
IN_NAMESPACE = 'JSONBENCH_TEST_FULL_DISK_NS'
TMPFS_SIZE = 256 * 1024


def skip(reason):
    print('skip: ' + reason)
    sys.exit(SKIP)


def reexec_in_namespace():
    """Runs this script again in a private mount namespace."""
    unshare = shutil.which('unshare')
    if not unshare:
        skip('unshare(1) not installed')
    probe = subprocess.run([unshare, '-m', '--propagation', 'private',
                            'true'], capture_output=True, text=True)
    if probe.returncode:
        skip('cannot create a mount namespace: %s' % probe.stderr.strip())
    env = dict(os.environ, **{IN_NAMESPACE: '1'})
    p = subprocess.run([unshare, '-m', '--propagation', 'private',
                        sys.executable] + sys.argv, env=env)
    sys.exit(p.returncode)


def mount_tmpfs(path, options):
    p = subprocess.run(['mount', '-t', 'tmpfs', '-o', options, 'tmpfs',
                        path], capture_output=True, text=True)
    if p.returncode:
        skip('cannot mount a tmpfs: %s' % p.stderr.strip())


def leave_free(mnt, free):
    """Fills the tmpfs at 'mnt' with one file so that 'free' bytes (a
    multiple of the page size) are left."""
    filler = os.path.join(mnt, 'filler')
    if os.path.exists(filler):
        os.unlink(filler)
    st = os.statvfs(mnt)
    size = st.f_blocks * st.f_frsize - free
    with open(filler, 'wb') as f:
        try:
            f.write(b'\0' * size)
            f.flush()
        except OSError:
            pass                # Full already: as full as it gets.
    st = os.statvfs(mnt)
    if st.f_bavail * st.f_frsize > free:
        fail('tmpfs has %d bytes free, wanted %d'
             % (st.f_bavail * st.f_frsize, free))


def check_fails_cleanly(case, args, target, mnt):
    p = run(args, expect_rc=1)
    lines = p.stderr.splitlines()
    if len(lines) != 1:
        fail('%s: wanted one line of error: %s' % (case, p.stderr))
    for w in [target, 'No space left on device']:
        if w not in lines[0]:
            fail('%s: message lacks "%s": %s' % (case, w, p.stderr))
    if 'Sanitizer' in p.stderr or 'runtime error' in p.stderr:
        fail('%s: sanitizer report: %s' % (case, p.stderr))
    left = sorted(f for f in os.listdir(mnt) if f != 'filler')
    if left:
        fail('%s: left behind on the full disk: %s' % (case, left))
    print('ok: %-28s %s' % (case, lines[0]))


def main():
    exe, db = sys.argv[1:3]
    if os.environ.get(IN_NAMESPACE) != '1':
        if os.geteuid() != 0:
            skip('mounting a tmpfs needs root')
        reexec_in_namespace()

    base = tempfile.mkdtemp(prefix='jsonbench-full-disk-')
    full = os.path.join(base, 'full')
    ro = os.path.join(base, 'ro')
    os.mkdir(full)
    os.mkdir(ro)
    mounted = []
    try:
        mount_tmpfs(full, 'size=%d' % TMPFS_SIZE)
        mounted.append(full)
        mount_tmpfs(ro, 'ro,size=64k')
        mounted.append(ro)

        # What each writer produces, measured where there is room.
        writers = [
            ('compact --output', ['compact', '--no-sha256', '--output']),
            ('dump --output', ['dump', '--no-sha256', '--output']),
            ('load --results', ['load', '--no-sha256', '--results']),
            ('compact --results', ['compact', '--no-sha256', '--results']),
        ]
        sizes = {}
        for name, args in writers:
            out = os.path.join(base, 'sized')
            run([exe] + args + [out, db])
            sizes[name] = os.path.getsize(out)
            os.unlink(out)

        page = os.sysconf('SC_PAGE_SIZE')
        for name, args in writers:
            half = sizes[name] // 2 // page * page
            # Room for all but the last partial page: the bulk is written,
            # the tail stays buffered and only the final flush fails.
            most = sizes[name] // page * page
            for what, free in [('full', 0), ('half free', half),
                               ('all but the tail', most)]:
                if free < page and what != 'full':
                    continue    # Too small to fail part way.
                if what == 'all but the tail' and most == sizes[name]:
                    continue    # Ends on a page: no tail.
                leave_free(full, free)
                target = os.path.join(full, 'out')
                check_fails_cleanly('%s, %s' % (name, what),
                                    [exe] + args + [target, db], target,
                                    full)

        # Both outputs of one compact run: the output fails first, and the
        # results are not written either.
        leave_free(full, 0)
        target = os.path.join(full, 'out')
        check_fails_cleanly('compact, output and results',
                            [exe, 'compact', '--no-sha256', '--output',
                             target, '--results',
                             os.path.join(full, 'r.json'), db], target, full)

        # Without --output, compact still writes and syncs its file, in
        # $TMPDIR, and removes it: nothing is left where there is room; on
        # a full disk it fails like --output and leaves nothing either.
        old_tmpdir = os.environ.get('TMPDIR')
        try:
            roomy = os.path.join(base, 'tmpdir')
            os.mkdir(roomy)
            os.environ['TMPDIR'] = roomy
            run([exe, 'compact', '--no-sha256', db])
            if os.listdir(roomy):
                fail('compact left files in $TMPDIR: %s' % os.listdir(roomy))
            print('ok: %-28s nothing left in $TMPDIR' % 'compact without --output')
            leave_free(full, 0)
            os.environ['TMPDIR'] = full
            check_fails_cleanly('compact, full $TMPDIR',
                                [exe, 'compact', '--no-sha256', db],
                                os.path.join(full, 'jsonbench-compact.db'),
                                full)
        finally:
            if old_tmpdir is None:
                os.environ.pop('TMPDIR', None)
            else:
                os.environ['TMPDIR'] = old_tmpdir

        # A read-only place: refused before the run.
        for option, workload in [('--output', 'compact'),
                                 ('--results', 'load')]:
            target = os.path.join(ro, 'out')
            p = run([exe, workload, option, target, db], expect_rc=2)
            for w in [option, target, 'Read-only file system']:
                if w not in p.stderr:
                    fail('read-only %s: message lacks "%s": %s'
                         % (option, w, p.stderr))
            print('ok: %-28s %s' % ('read-only ' + option,
                                    p.stderr.strip()))
    finally:
        for m in mounted:
            subprocess.run(['umount', m])
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()
