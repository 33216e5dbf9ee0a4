"""ringchain from Python, with the standard library only: `ringchain serve` from PATH on a free port,
JSON-RPC over urllib, unittest. Run with `python3 -m unittest` after `npm install -g ringchain`."""

import json
import subprocess
import unittest
import urllib.request

# solc 0.8.37, optimizer on (200 runs), evmVersion paris, no metadata, compiled from:
#
#   // SPDX-License-Identifier: MIT
#   pragma solidity ^0.8.0;
#
#   contract Counter {
#       uint256 public count;                       // slot 0
#       event Incremented(uint256 count);
#
#       function increment() external {
#           count += 1;
#           emit Incremented(count);
#       }
#   }
COUNTER_BYTECODE = (
    "0x6080604052348015600f57600080fd5b5060cc80601d6000396000f3fe6080604052348015600f57600080fd5b5060"
    "04361060325760003560e01c806306661abd146037578063d09de08a146051575b600080fd5b603f60005481565b6040"
    "5190815260200160405180910390f35b60576059565b005b60016000808282546069919060a6565b90915550506000"
    "546040519081527f20d8a6f5a693f9d1d627a598e8820f7a55ee74c183aa8f1a30e8d4e8dd9a8d849060200160405180"
    "910390a1565b8082018082111560c657634e487b7160e01b600052601160045260246000fd5b9291505056"
)
COUNT = "0x06661abd"      # count()
INCREMENT = "0xd09de08a"  # increment()
INCREMENTED = "0x20d8a6f5a693f9d1d627a598e8820f7a55ee74c183aa8f1a30e8d4e8dd9a8d84"  # keccak("Incremented(uint256)")


def word(n):
    return "0x" + format(n, "064x")


class Ringchain:
    """`ringchain serve --port 0 --json`: one line on stdout once it answers, then JSON-RPC at httpUrl."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["ringchain", "serve", "--port", "0", "--json", "--quiet"],
            stdin=subprocess.PIPE,  # closing it stops the server; so does this process dying
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"ringchain serve exited with code {self.process.wait()} before it listened")
        ready = json.loads(line)
        self.url = ready["httpUrl"]
        self.accounts = [account["address"] for account in ready["accounts"]]

    def call(self, method, *params):
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
        request = urllib.request.Request(self.url, data=body, headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            answer = json.load(response)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']['message']}")
        return answer["result"]

    def stop(self):
        """Closes stdin, which ends the server; returns its exit code."""
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.stdout.close()


class CounterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.chain = Ringchain()

    @classmethod
    def tearDownClass(cls):
        cls.chain.stop()

    def test_deploys_transacts_and_reads_storage_and_receipts(self):
        chain, sender = self.chain, self.chain.accounts[0]  # a dev account: unlocked, so eth_sendTransaction signs

        deployed = chain.call("eth_sendTransaction", {"from": sender, "data": COUNTER_BYTECODE})
        deployment = chain.call("eth_getTransactionReceipt", deployed)  # automine: already in a block
        self.assertEqual(deployment["status"], "0x1")
        counter = deployment["contractAddress"]

        sent = chain.call("eth_sendTransaction", {"from": sender, "to": counter, "data": INCREMENT})
        receipt = chain.call("eth_getTransactionReceipt", sent)
        self.assertEqual(receipt["status"], "0x1")
        self.assertEqual(receipt["from"], sender)
        self.assertEqual(receipt["to"], counter)
        [log] = receipt["logs"]
        self.assertEqual((log["address"], log["topics"], log["data"]), (counter, [INCREMENTED], word(1)))

        self.assertEqual(chain.call("eth_getStorageAt", counter, "0x0", "latest"), word(1))
        self.assertEqual(chain.call("eth_getStorageAt", counter, "0x0", deployment["blockNumber"]), word(0))
        self.assertEqual(chain.call("eth_call", {"to": counter, "data": COUNT}, "latest"), word(1))


class ServerTest(unittest.TestCase):
    def test_closing_stdin_stops_the_server(self):
        chain = Ringchain()
        self.assertEqual(chain.call("eth_chainId"), "0x7a69")  # 31337
        self.assertEqual(chain.stop(), 0)


if __name__ == "__main__":
    unittest.main()
