// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "../src/Counter.sol";

// Run with `forge test --fork-url <ringchain URL>`: the tests see ringchain's chain (its id, its
// funded dev accounts) and whatever was deployed on it, and change only the fork's copy.
contract CounterForkTest {
    address constant DEV_ACCOUNT_0 = 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266;

    function test_forksRingchain() public view {
        require(block.chainid == 31337, "not ringchain's chain id");
        require(DEV_ACCOUNT_0.balance > 1 ether, "dev account 0 not funded on the fork");
    }

    function test_increment() public {
        Counter counter = new Counter();
        counter.increment();
        require(counter.count() == 1, "count is not 1");
    }
}
