"""Runs an ACP agent and records the wire between it and its client, line by line, without changing a byte:

    python tests/acp_wire/tee.py RECORD.jsonl PROGRAM [ARGS…]

Every line the client writes to the agent and every line the agent writes back is appended to RECORD.jsonl as
{"from": "client" | "agent", "line": …}; stderr and the exit code pass through. tests/acp_wire/schema.py checks a
record against the ACP JSON schema."""
import json
import subprocess
import sys
import threading


def main():
    record, program = sys.argv[1], sys.argv[2:]
    lock = threading.Lock()
    out = open(record, 'a', encoding='utf-8')

    def note(side, line):
        with lock:
            out.write(json.dumps({'from': side, 'line': line.decode('utf-8', 'replace').rstrip('\r\n')}) + '\n')
            out.flush()

    agent = subprocess.Popen(program, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def client_to_agent():
        for line in sys.stdin.buffer:
            note('client', line)
            try:
                agent.stdin.write(line)
                agent.stdin.flush()
            except BrokenPipeError:
                break
        try:
            agent.stdin.close()
        except BrokenPipeError:
            pass

    threading.Thread(target=client_to_agent, daemon=True).start()
    for line in agent.stdout:
        note('agent', line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    sys.exit(agent.wait())


if __name__ == '__main__':
    main()
