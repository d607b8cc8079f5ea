package batch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/meshrig/meshrig/batch"
)

// Items are dealt to shards in id order, round-robin, whatever the
// manifest's line order.
func ExampleShard_Items() {
	manifest := `{"id":"wolf","input":"wolf/"}
{"id":"cat","input":"cat/","bones":20}
{"id":"horse","input":"horse-gallop/","skeleton":"none"}
{"id":"lion","input":["lion-poses/"],"output":"big/lion.dae"}
`
	items, err := batch.ParseManifest(strings.NewReader(manifest), "/library/manifest.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 2; i++ {
		s := batch.Shard{Index: i, Count: 2}
		for _, it := range s.Items(items) {
			fmt.Println(s, it.ID, it.Inputs, it.Output)
		}
	}
	// Output:
	// 0/2 cat [/library/cat] cat.glb
	// 0/2 lion [/library/lion-poses] big/lion.dae
	// 1/2 horse [/library/horse-gallop] horse.glb
	// 1/2 wolf [/library/wolf] wolf.glb
}

// Run with a Runner of one's own (meshrig's is batch.Exec): a missing
// input is reported, the other item done, and a second run skips it.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "batch")
	defer os.RemoveAll(dir)
	os.Mkdir(filepath.Join(dir, "cube"), 0o755)
	os.WriteFile(filepath.Join(dir, "cube", "frame-1.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	items, _ := batch.ParseManifest(strings.NewReader(`{"id":"cube","input":"cube"}
{"id":"gone","input":"gone"}`), filepath.Join(dir, "lib.jsonl"))
	opt := batch.Options{
		OutDir: filepath.Join(dir, "out"),
		Runner: copyRunner{},
		Events: func(e batch.Event) { fmt.Println(e.Kind, e.Report.ID, e.Report.Error != "") },
	}
	for run := 0; run < 2; run++ {
		t, _ := batch.Run(context.Background(), items, opt)
		fmt.Printf("%+v\n", t)
	}
	// Output:
	// failed gone true
	// done cube false
	// {Total:2 Skipped:0 Done:1 Failed:1}
	// skipped cube false
	// failed gone true
	// {Total:2 Skipped:1 Done:0 Failed:1}
}

// copyRunner "rigs" an item by writing its id (a real Runner writes
// through a temporary file and a rename).
type copyRunner struct{}

func (copyRunner) Run(ctx context.Context, j batch.Job) (batch.Result, error) {
	return batch.Result{Bones: 1}, os.WriteFile(j.Output, []byte(j.Item.ID), 0o644)
}
