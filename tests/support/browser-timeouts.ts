// Browser tests start Chromium and wait on real servers; jest's 5 s default is too short for that.
jest.setTimeout(60_000);
