#!/usr/bin/env python3
"""pty.py COLUMNS OUT COMMAND... -- runs COMMAND with its standard output
and standard error on a pseudo-terminal of COLUMNS columns, writes every
byte it prints to OUT as it prints it, and exits with its status (128 + N
for signal N). For the tests of what rulings draws on a terminal
(test-progress.sh)."""
import fcntl
import os
import struct
import subprocess
import sys
import termios


def main():
    cols, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    # no translation of "\n" into "\r\n": the bytes as the program wrote them
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, close_fds=True)
    os.close(slave)
    with open(out, "wb") as f:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:          # EIO: every writer is gone
                break
            if not chunk:
                break
            f.write(chunk)
            f.flush()
    os.close(master)
    status = proc.wait()
    sys.exit(status if status >= 0 else 128 - status)


main()
