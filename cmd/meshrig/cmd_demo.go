package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/render"
)

func newDemo(g *globals) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Rig a built-in walking character end to end: demo.glb, demo.png and a report",
		Long: `demo generates a walking biped (a mesh animation with a known skeleton),
rigs it with the default method exactly as 'meshrig rig' would, writes the
rig as demo.glb and a picture of it as demo.png, and prints how well the rig
reproduces the animation and how close its joints are to the true ones.
No files are needed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			ctx := cmd.Context()
			if st, err := os.Stat(out); err == nil && !st.IsDir() {
				return fmt.Errorf("-o %s is a file: demo writes demo.glb and demo.png into a folder", out)
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			var plan safefile.Plan
			defer plan.Abort()
			glb, png := filepath.Join(out, "demo.glb"), filepath.Join(out, "demo.png")
			if err := firstErr(declareRig(&plan, "-o", glb), declarePNG(&plan, "-o", png)); err != nil {
				return err
			}
			truth, err := character.Generate(character.Biped, character.Options{})
			if err != nil {
				return err
			}
			s := character.Sequence(truth)
			fmt.Fprintf(w, "built-in animation: a walking biped, %d vertices, %d frames, %d true joints\n", s.N(), s.F(), truth.Skeleton.Len())
			o := &rigOptions{method: "ledeng", maxInf: 4, skeleton: "tree"}
			start := time.Now()
			r, name, err := rigWith(ctx, g, o, s)
			if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			rep, err := metric.Compare(s, r)
			if err != nil {
				return err
			}
			rep.Method, rep.Seconds = name, time.Since(start).Seconds()
			je := metric.JointError(metric.Heads(&r.Skeleton), metric.DeformingHeads(truth), rep.Diagonal)
			rep.JointErrorPercent = &je
			mid := r.Clips[0].Frames / 3
			pic, err := render.Rig(r, 0, mid, render.Options{Caption: fmt.Sprintf("meshrig demo: %d bones, RMSE %.3f%%, frame %d", rep.Bones, rep.RMSEPercent, mid+1)})
			if err != nil {
				return err
			}
			if err := firstErr(stageRig(&plan, glb, r, format.WriteOptions{}), stagePNG(&plan, png, pic)); err != nil {
				return err
			}
			if err := plan.Commit(ctx); err != nil {
				return err
			}
			printReport(w, rep)
			fmt.Fprintf(w, "wrote %s and %s\n", glb, png)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", ".", "folder for demo.glb and demo.png")
	return cmd
}
