package abc

import (
	"math"
)

// grid is the frames' times: n frames at rate fps, frame i at at(i).
type grid struct {
	n   int
	fps float64
	at  func(i int) float64
}

// frameTimes returns the frames' times and rate: the driving samples
// themselves when one evenly spaced sampling drives everything and no
// rate is asked for, else an even grid over their span.
func (a *Archive) frameTimes(picked []*candidate, fps float64) grid {
	type key struct{ sampling, n int }
	seen := map[key]bool{}
	var keys []key
	for _, c := range picked {
		for _, p := range c.driven {
			k := key{p.Sampling, p.Samples}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	if fps == 0 && len(keys) == 1 {
		ts := a.Samplings[keys[0].sampling]
		if step := ts.Step(keys[0].n); step > 0 {
			return grid{n: keys[0].n, fps: 1 / step, at: ts.Time}
		}
	}
	if len(keys) == 0 {
		if fps == 0 {
			fps = 30
		}
		t0 := a.Samplings[picked[0].mesh.Sampling].Time(0)
		return grid{n: 1, fps: fps, at: func(int) float64 { return t0 }}
	}
	start, end := math.Inf(1), math.Inf(-1)
	finest := 0.0
	for _, k := range keys {
		ts := a.Samplings[k.sampling]
		start = min(start, ts.Time(0))
		end = max(end, ts.Time(k.n-1))
		if s := ts.Step(k.n); s > 0 {
			finest = max(finest, 1/s)
		}
	}
	if fps == 0 {
		fps = finest
	}
	if fps == 0 {
		fps = 30
	}
	span := end - start
	frames := math.Ceil(span*fps - 1e-6)
	if !(span > 0) || !(frames >= 1) {
		return grid{n: 1, fps: fps, at: func(int) float64 { return start }}
	}
	// Past MaxInt32 frames the budget refuses it anyway.
	n := int(min(frames, math.MaxInt32))
	rate := float64(n) / span
	return grid{n: n + 1, fps: rate, at: func(i int) float64 {
		if i == n {
			return end
		}
		return start + float64(i)/rate
	}}
}
