package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/rig"
)

// Every command that writes files declares them on a safefile.Plan
// before reading any input (the folder must take files, two outputs must
// differ), records each file it reads, checks again before the work, and
// stages and commits its outputs together at the end, so nothing it reads
// is overwritten and an error or Ctrl-C leaves no output behind.

// declareRig declares a rig output, refusing a format meshrig cannot write.
func declareRig(p *safefile.Plan, flag, path string) error {
	if path == "" {
		return fmt.Errorf("give the output rig with %s OUT.glb (or .gltf, .dae)", flag)
	}
	if _, err := format.WriterFor(path); err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return p.Output(flag, path)
}

// declareReport declares a JSON report output; "-" is standard output.
func declareReport(p *safefile.Plan, flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	return p.Output(flag, path)
}

// declarePNG declares a picture output.
func declarePNG(p *safefile.Plan, flag, path string) error {
	if path == "" {
		return fmt.Errorf("give the output picture with %s OUT.png", flag)
	}
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		return fmt.Errorf("%s %s: pictures are written as PNG: name a .png file", flag, path)
	}
	return p.Output(flag, path)
}

// stageRig writes r to its declared path's temporary file.
func stageRig(p *safefile.Plan, path string, r *rig.Rig, opt format.WriteOptions) error {
	write, err := format.WriterFor(path)
	if err != nil {
		return err
	}
	return p.Stage(path, func(w io.Writer) error { return write(w, r, opt) })
}

// writeRigs stages rigs[k] to outs[k] and the JSON report (when report
// names a file), and commits them together.
func writeRigs(ctx context.Context, g *globals, p *safefile.Plan, outs []string, rigs []*rig.Rig, opt format.WriteOptions, report string, rep any) error {
	for k, out := range outs {
		if err := stageRig(p, out, rigs[k], opt); err != nil {
			return err
		}
	}
	if err := stageJSON(p, report, rep); err != nil {
		return err
	}
	if err := p.Commit(ctx); err != nil {
		return err
	}
	g.logf("wrote %s", strings.Join(outs, ", "))
	return nil
}

// stageJSON writes v as indented JSON to its declared path's temporary
// file; "" and "-" (standard output, printed after the commit) stage
// nothing.
func stageJSON(p *safefile.Plan, path string, v any) error {
	if path == "" || path == "-" {
		return nil
	}
	b, err := jsonBytes(v)
	if err != nil {
		return err
	}
	return p.Stage(path, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// printJSON writes v as indented JSON to w when path is "-".
func printJSON(w io.Writer, path string, v any) error {
	if path != "-" {
		return nil
	}
	b, err := jsonBytes(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func jsonBytes(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("JSON report: %w", err)
	}
	return append(b, '\n'), nil
}

// stagePNG writes a picture to its declared path's temporary file.
func stagePNG(p *safefile.Plan, path string, img image.Image) error {
	return p.Stage(path, func(w io.Writer) error { return png.Encode(w, img) })
}
