import { testStack } from './stack-env';

// Fail the whole file at once, with the reason, rather than every test with a connection error.
testStack();
