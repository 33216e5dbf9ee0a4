// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// The few forge cheatcodes these files use, declared here so the example needs no forge-std
// checkout (lib/forge-std comes from GitHub, which a CI without network cannot reach). With
// forge-std installed, `import {Test} from "forge-std/Test.sol"` gives the same and more.
interface Vm {
    function envUint(string calldata name) external view returns (uint256);
    function startBroadcast(uint256 privateKey) external;
    function stopBroadcast() external;
}

abstract contract WithVm {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
}
