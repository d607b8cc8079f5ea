package refit_test

import (
	"context"
	"fmt"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// A character's rig without its skin, refitted to its animation: the
// skeleton comes back as it was, with weights and motion that replay it.
func ExampleAnimation() {
	truth, _ := character.Generate(character.Snake, character.Options{Frames: 12, Vertices: 800})
	s := character.Sequence(truth)
	bare := &rig.Rig{Mesh: truth.Mesh, Skeleton: truth.Skeleton}
	out, rep, err := refit.Animation(context.Background(), bare, s, refit.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := metric.Compare(s, out)
	fmt.Println("joints:", out.Skeleton.Len(), "weights from:", rep.WeightsFrom)
	fmt.Println("RMSE% under 0.05:", m.RMSEPercent < 0.05)
	// Output:
	// joints: 12 weights from: proximity
	// RMSE% under 0.05: true
}
