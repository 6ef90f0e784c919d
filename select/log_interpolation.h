// Interpolation of times between message sizes, linear in log(time)
// against log(bytes): collective times follow power laws in the message
// size (flat at small sizes, proportional at large ones), which are straight
// lines in log-log. 0 bytes is placed at 1 byte.
#pragma once

#include <cstdint>

namespace hiercoll {

// The time at `bytes` on the line through (x0, y0) and (x1, y1), x0 < x1,
// y0, y1 > 0.
double interpolate_log_log(int64_t x0, double y0, int64_t x1, double y1, int64_t bytes);

// Where method B overtakes method A between sizes x0 < x1, A measured (or
// interpolated) a0, a1 and B b0, b1: the smallest size at which B's line is
// at or below A's, clamped to [x0 + 1, x1] (x1 when B never overtakes, x0 + 1
// when it already leads at x0).
int64_t crossing_bytes(int64_t x0, double a0, double b0, int64_t x1, double a1, double b1);

// The geometric middle of (x0, x1], for a boundary with no times to cross.
int64_t middle_bytes(int64_t x0, int64_t x1);

}  // namespace hiercoll
