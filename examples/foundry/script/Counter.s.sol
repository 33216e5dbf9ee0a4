// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "../src/Counter.sol";
import {WithVm} from "../src/Vm.sol";

// forge script script/Counter.s.sol --rpc-url <ringchain URL> --broadcast
// with PRIVATE_KEY set to a dev account's key (printed by `ringchain serve`).
contract CounterScript is WithVm {
    function run() external returns (Counter counter) {
        vm.startBroadcast(vm.envUint("PRIVATE_KEY"));
        counter = new Counter();
        counter.increment();
        vm.stopBroadcast();
    }
}
