package aguiar_test

import (
	"context"
	"fmt"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/method/aguiar"
	"github.com/meshrig/meshrig/metric"
)

// ExampleRig rigs a generated swimming snake and measures the rig against
// the animation and the snake's true skeleton.
func ExampleRig() {
	truth, _ := character.Generate(character.Snake, character.Options{Frames: 30})
	s := character.Sequence(truth)
	r, err := aguiar.Rig(context.Background(), s, aguiar.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, _ := metric.Compare(s, r)
	je := metric.JointError(metric.Heads(&r.Skeleton), metric.DeformingHeads(truth), rep.Diagonal)
	fmt.Printf("%d joints for %d true ones; ACCU below 0.1%%: %v; joint error below 3%%: %v\n",
		r.Skeleton.Len(), truth.Skeleton.Len(), rep.ACCUPercent < 0.1, je < 3)
	// Output: 12 joints for 12 true ones; ACCU below 0.1%: true; joint error below 3%: true
}
