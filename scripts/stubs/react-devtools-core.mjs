// Ink loads react-devtools-core only when DEV=true, for debugging Ink itself. It is not a
// dependency of common-memory; in the bundle this stand-in makes that optional import fail the way
// a missing package does, and Ink then says how to install it.
throw new Error("Cannot find package 'react-devtools-core' (not bundled with common-memory)");
export default undefined;
