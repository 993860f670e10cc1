import sys

from rulesc.cli import main

if __name__ == "__main__":  # not when a worker process of `simulate --workers` imports it
    sys.exit(main())
