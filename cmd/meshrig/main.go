// Command meshrig turns mesh animations into skeletal rigs, converts
// between the formats rigs travel in, and measures every result.
//
// Run `meshrig --help` for the subcommands and `meshrig demo` for a tour.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	tuneGC()
	ctx, stop := interruptible()
	err := newRoot().ExecuteContext(ctx)
	stop()
	switch {
	case err == nil:
	case interrupted(err):
		fmt.Fprintln(os.Stderr, "meshrig: interrupted")
		os.Exit(exitInterrupted)
	default:
		fmt.Fprintf(os.Stderr, "meshrig: %v\n", oneLine(err))
		os.Exit(1)
	}
}

// globals are the flags every subcommand shares.
type globals struct {
	quiet bool
}

func newRoot() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "meshrig",
		Short: "Skeletal rigs from mesh animations, with every error measured",
		Long: `meshrig extracts a skeleton, skinning weights and joint motion from a mesh
animation, writes them as glTF 2.0 or Collada, and reports how well the rig
reproduces the input (RMSE%, Max%, normal error; all relative to the rest
pose's bounding-box diagonal).

Start with:  meshrig demo`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "print only errors and the final result")
	root.AddCommand(
		newDemo(g),
		newRig(g),
		newBatch(g),
		newRefit(g),
		newSkeletonize(g),
		newEval(g),
		newView(g),
		newBench(g),
		newGen(g),
		newRender(g),
		newInfo(g),
		newFormats(g),
		newVersion(g),
	)
	return root
}

// oneLine keeps an error message on a single line.
func oneLine(err error) string {
	s := err.Error()
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i] + " …"
		}
	}
	return s
}
