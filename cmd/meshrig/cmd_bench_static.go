package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

// staticCase is one mesh of `bench --static`, with its ground-truth
// joints when known.
type staticCase struct {
	name  string
	path  string
	truth string // a .tgf, or the glTF file itself; "" when unknown
}

// staticBenchRow is one line of the static benchmark; Error is set when
// the method failed on the mesh.
type staticBenchRow struct {
	staticReport
	// PoseRMSEPercent is the pose test (metric.PoseError): the true motion
	// played through our skeleton and weights; TruthPoseRMSEPercent the
	// true rig's own error on the same frames. Set where the case has a
	// motion.
	PoseRMSEPercent      *float64 `json:"pose_rmse_percent,omitempty"`
	TruthPoseRMSEPercent *float64 `json:"truth_pose_rmse_percent,omitempty"`
	Error                string   `json:"error,omitempty"`
}

// staticCases lists the shared data's static meshes, the libigl rigs
// with their TGF skeletons and the glTF characters in bind pose with
// their own rigs; or, when paths are given, those meshes without truth.
func staticCases(paths []string) ([]staticCase, error) {
	var out []staticCase
	for _, p := range paths {
		out = append(out, staticCase{name: meshName(p), path: p})
	}
	if len(paths) > 0 {
		return out, nil
	}
	root := shareddata.Dir()
	if root == "" {
		return nil, fmt.Errorf("no meshes given and no shared data found (set MESHRIG_DATA)")
	}
	list := func(dir string) []string {
		ents, _ := os.ReadDir(filepath.Join(root, dir))
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		return names
	}
	for _, name := range list("static") {
		out = append(out, staticCase{name: meshName(name), path: filepath.Join(root, "static", name)})
	}
	for _, name := range list("rigs") {
		dir := filepath.Join(root, "rigs", name)
		out = append(out, staticCase{name: name, path: filepath.Join(dir, name+".obj.gz"), truth: filepath.Join(dir, name+".tgf.gz")})
	}
	for _, name := range list("gltf") {
		if strings.HasSuffix(name, ".glb") || strings.HasSuffix(name, ".gltf") {
			p := filepath.Join(root, "gltf", name)
			out = append(out, staticCase{name: meshName(name), path: p, truth: p})
		}
	}
	return out, nil
}

// meshName is a file's base name without its extensions.
func meshName(p string) string {
	b := filepath.Base(p)
	if i := strings.IndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

// benchStatic skeletonizes every case with every method (or the one
// --method names) and heat weights, printing a row each as it finishes.
// A method failing on a mesh is reported in its row; the command fails at
// the end if any did.
func benchStatic(cmd *cobra.Command, g *globals, o *benchOptions, plan *safefile.Plan, args []string) error {
	cases, err := staticCases(args)
	if err != nil {
		return err
	}
	methods := staticMethods
	if cmd.Flags().Changed("method") {
		methods = []string{o.rig.method}
	}
	for _, name := range methods {
		so := o.static
		so.method = name
		if err := so.check(); err != nil {
			return err
		}
	}
	for _, c := range cases {
		plan.Read(c.path, c.truth)
	}
	if err := plan.Check(); err != nil {
		return err
	}
	quiet := *g
	quiet.quiet = true
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "%-18s %8s %-12s %6s %8s %12s %10s %11s\n", "mesh", "vertices", "method", "joints", "seconds", "joint error%", "pose RMSE%", "truth pose%")
	var rows []staticBenchRow
	failed := 0
	for _, c := range cases {
		m, err := readStaticMesh(c.path, plan)
		if err != nil {
			return err
		}
		var truth []linalg.Vec3
		if c.truth != "" {
			if truth, err = truthJoints(c.truth, plan); err != nil {
				return err
			}
		}
		motion, err := loadPoseTruth(c, m)
		if err != nil {
			return err
		}
		for _, name := range methods {
			so := o.static
			so.method = name
			r, rep, err := skeletonizeMesh(cmd.Context(), &quiet, &so, m, truth)
			if interrupted(err) {
				return err
			}
			rep.Mesh, rep.Vertices, rep.Method = c.name, len(m.Verts), name
			row := staticBenchRow{staticReport: rep}
			if err != nil {
				row.Error = err.Error()
				failed++
				fmt.Fprintf(w, "%-18s %8d %-12s %s\n", c.name, len(m.Verts), name, oneLine(err))
				rows = append(rows, row)
				continue
			}
			je, pe, te := "-", "-", "-"
			if rep.JointErrorPercent != nil {
				je = fmt.Sprintf("%.3f", *rep.JointErrorPercent)
			}
			if motion != nil {
				got, own, err := metric.PoseError(r, motion.rig, motion.anim)
				if err != nil {
					return fmt.Errorf("%s: pose test: %w", c.name, err)
				}
				row.PoseRMSEPercent, row.TruthPoseRMSEPercent = &got, &own
				pe, te = fmt.Sprintf("%.3f", got), fmt.Sprintf("%.3f", own)
			}
			fmt.Fprintf(w, "%-18s %8d %-12s %6d %8.2f %12s %10s %11s\n", c.name, rep.Vertices, name, rep.Joints, rep.Seconds, je, pe, te)
			rows = append(rows, row)
		}
	}
	if err := stageJSON(plan, o.json, rows); err != nil {
		return err
	}
	if err := plan.Commit(cmd.Context()); err != nil {
		return err
	}
	if err := printJSON(w, o.json, rows); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d runs failed", failed, len(rows))
	}
	return nil
}
