package codec_test

import "github.com/iggywire/iggywire/internal/testcheck"

// require and assert are the standard-library checks of internal/testcheck.
var require, assert = testcheck.Require, testcheck.Assert
