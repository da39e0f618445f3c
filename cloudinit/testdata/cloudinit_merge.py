"""Merge a MIME user-data with cloud-init's own part handler; print JSON.

Usage: python3 cloudinit_merge.py USER_DATA. Prints the merged config's
user names, write_files paths and runcmd lists, in cloud-init's order.
"""
import json
import sys
import tempfile

from cloudinit import handlers, user_data
from cloudinit.handlers.cloud_config import CloudConfigPartHandler
import yaml


class Paths:
    def __init__(self, d):
        self.d = d

    def get_ipath(self, *args):
        return self.d + "/cloud-config.txt"


def main(path):
    with open(path, "rb") as f:
        msg = user_data.UserDataProcessor({}).process(f.read())
    paths = Paths(tempfile.mkdtemp())
    h = CloudConfigPartHandler(paths)
    h.handle_part(None, handlers.CONTENT_START, None, None, None, None)
    for part in msg.walk():
        if part.get_content_maintype() == "multipart":
            continue
        body = part.get_payload(decode=True).decode()
        h.handle_part(None, part.get_content_type(), part.get_filename(), body, None, dict(part.items()))
    h.handle_part(None, handlers.CONTENT_END, None, None, None, None)
    with open(paths.get_ipath()) as f:
        cfg = yaml.safe_load(f)
    print(json.dumps({
        "users": [u if isinstance(u, str) else u["name"] for u in cfg.get("users", [])],
        "write_files": [w["path"] for w in cfg.get("write_files", [])],
        "runcmd": cfg.get("runcmd", []),
    }))


if __name__ == "__main__":
    main(sys.argv[1])
