// Whether the tests run under ./hiercoll test --sanitize (the sanitize
// config sets HIERCOLL_TEST_SANITIZE=1): the heaviest matrices then take a
// sample of their cases, which the sanitizers slow down several times.
#pragma once

namespace hiercoll::testing {

bool sanitize_mode();

}  // namespace hiercoll::testing
