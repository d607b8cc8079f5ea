package stretch

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/metric"
)

// BenchmarkFitQuadruped fits squash and stretch to the generated
// quadruped's own rig and motion (6k vertices × 60 frames, 21 joints):
// the cost of the sweeps and Levenberg–Marquardt steps from the skin's
// sums, plus the weight solves (0.42 s/op with one sweep per frame;
// 0.51 with three).
func BenchmarkFitQuadruped(b *testing.B) {
	r, err := character.Generate(character.Quadruped, character.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s := character.Sequence(r)
	var rmse float64
	for b.Loop() {
		out, err := Fit(context.Background(), r, s, Options{})
		if err != nil {
			b.Fatal(err)
		}
		rep, err := metric.Compare(s, out)
		if err != nil {
			b.Fatal(err)
		}
		rmse = rep.RMSEPercent
	}
	b.ReportMetric(rmse, "RMSE%")
}
