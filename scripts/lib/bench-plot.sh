# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The plots of scripts/bench.sh, drawn with gnuplot from the figures of
# bench-report --table (OUT/sweep.csv: one row per configuration, device
# and load mode; the columns are named in its header). Only the mac
# profile has several load sizes, so only it is plotted: one panel per
# client kick/wait mode, one line per device and load mode, both axes
# logarithmic. Each figure is written as PNG and SVG. Nothing here
# computes a figure: the CSV is only split into gnuplot's data files.

BENCH_FONT="DejaVu Sans,12"

# Colour per device, dash and point per load mode.
bench_device_colour() {
	case "$1" in
	stock0) echo "#404040" ;;
	imm0) echo "#1f77b4" ;;
	batch0) echo "#d62728" ;;
	*) echo "#2ca02c" ;;
	esac
}

bench_device_title() {
	case "$1" in
	stock0) echo "stock vdpa_sim_net" ;;
	imm0) echo "vdpa_sim_batch immediate" ;;
	batch0) echo "vdpa_sim_batch batch" ;;
	*) echo "$1" ;;
	esac
}

# bench_style MODE DEVICE: the gnuplot line style of one series.
bench_style() {
	local dash=1 point=7
	[ "$1" = parallel ] && dash=2 point=9
	printf 'lc rgb "%s" dt %d pt %d ps 1.3 lw 2' \
		"$(bench_device_colour "$2")" "$dash" "$point"
}

# bench_split_series CSV DIR: the mac profile's rows, one file per panel
# and series, DIR/KICK-WAIT/MODE-DEVICE.tsv, holding COUNT MEDIAN Q1 Q3
# NOTIFICATIONS WAKEUPS (per load; NaN where there is no counter).
bench_split_series() {
	awk -F , -v dir="$2" '
	NR == 1 {
		for (i = 1; i <= NF; i++)
			col[$i] = i
		next
	}
	$col["profile"] == "mac" {
		panel = $col["kick"] "-" $col["wait"]
		file = dir "/" panel "/" $col["mode"] "-" $col["device"] ".tsv"
		if (!(file in seen)) {
			system("mkdir -p \"" dir "/" panel "\"")
			seen[file] = 1
			printf "" > file
		}
		notif = $col["notifications_per_load"]
		wake = $col["wakeups_per_load"]
		print $col["count"] "\t" $col["median"] "\t" $col["q1"] "\t" \
			$col["q3"] "\t" (notif == "" ? "NaN" : notif) "\t" \
			(wake == "" ? "NaN" : wake) >> file
	}' "$1"
}

# The panels in plotting order, as KICK-WAIT names of DIR's subfolders.
bench_panels() {
	local kick wait
	for wait in poll call; do
		for kick in each once; do
			[ -d "$1/$kick-$wait" ] && echo "$kick-$wait"
		done
	done
	return 0
}

# bench_series KIND PANEL_DIR MODE DEVICE: the plot clause of one series
# of KIND, "us" (us per command with interquartile bars) or "notifications" (the
# device's own count; for stock, which has none, the tool's call wake-ups
# where the client sleeps), or nothing when there is no such series.
bench_series() {
	local kind=$1 file=$2/$3-$4.tsv columns suffix=
	[ -s "$file" ] || return 0
	if [ "$kind" = us ]; then
		columns="1:2:3:4 with yerrorlines"
	elif [ "$4" != stock0 ]; then
		columns="1:5 with linespoints"
	elif [ "${2##*-}" = call ]; then
		columns="1:6 with linespoints"
		suffix=" (call wake-ups)"
	else
		return 0
	fi
	printf "'%s' using %s %s title '%s, %s%s'\n" "$file" "$columns" \
		"$(bench_style "$3" "$4")" "$(bench_device_title "$4")" "$3" \
		"$suffix"
}

# bench_plot_body DIR KIND: gnuplot commands drawing every panel of KIND.
bench_plot_body() {
	local dir=$1 kind=$2 panels panel mode dev clauses n
	mapfile -t panels < <(bench_panels "$dir")
	n=${#panels[@]}
	echo "set multiplot layout $(((n + 1) / 2)),$(((n > 1) + 1)) \\"
	if [ "$kind" = us ]; then
		printf "  title '%s' font ',16'\n" \
			"CVQ time per command (MAC_ADDR_SET loads; median, bars: interquartile range)"
		echo "set ylabel 'µs per command (log)'"
		echo "set key top right"
	else
		printf "  title '%s' font ',16'\n" \
			"CVQ notifications per load (device counter; stock: client wake-ups)"
		echo "set ylabel 'notifications per load (log)'"
		echo "set key top left"
	fi
	for panel in "${panels[@]}"; do
		clauses=()
		[ "$kind" = notifications ] &&
			clauses+=("x with lines lc rgb '#d8d8d8' lw 8 title 'one per command'")
		for mode in serial parallel; do
			for dev in stock0 imm0 batch0; do
				mapfile -t -O "${#clauses[@]}" clauses < \
					<(bench_series "$kind" "$dir/$panel" "$mode" "$dev")
			done
		done
		echo "set title 'kick ${panel%-*}, wait ${panel#*-}'"
		printf 'plot %s' "${clauses[0]}"
		[ "${#clauses[@]}" -gt 1 ] &&
			printf ', \\\n  %s' "${clauses[@]:1}"
		echo
	done
	echo "unset multiplot"
}

# bench_plot_common DIR: axes and key shared by every panel; the x range
# spans the load sizes plotted (DIR's series files), the same in every
# panel.
bench_plot_common() {
	local sizes
	mapfile -t sizes < <(cat "$1"/*/*.tsv | cut -f 1 | sort -g -u)
	echo "set xrange [${sizes[0]} / 1.5:${sizes[-1]} * 1.5]"
	cat <<'EOT'
set encoding utf8
set logscale xy 10
set xlabel 'commands per load (log)'
set xtics (1, 3, 10, 30, 100, 300, 1000, 3000)
set format y '%g'
set mxtics 10
set grid xtics ytics lc rgb '#d0d0d0' lw 1
set key opaque box samplen 3 spacing 1.1 font ',11'
set offsets graph 0.05, graph 0.05, graph 0.15, graph 0.05
set border lw 1.2
EOT
}

# bench_plot CSV OUTDIR: OUTDIR/{us-per-command,notifications}.{png,svg}.
bench_plot() {
	local data=$2/plot kind name width height panels rows terminal
	command -v gnuplot >/dev/null ||
		die "gnuplot not found: install gnuplot-nox (scripts/setup.sh)"
	rm -rf "$data"
	mkdir -p "$data"
	bench_split_series "$1" "$data"
	panels=$(bench_panels "$data" | wc -l)
	[ "$panels" -gt 0 ] || die "nothing to plot in $1"
	width=$((panels > 1 ? 1500 : 900))
	rows=$(((panels + 1) / 2))
	height=$((rows * 560 + 60))
	for kind in us notifications; do
		name=notifications
		[ "$kind" = us ] && name=us-per-command
		{
			bench_plot_common "$data"
			bench_plot_body "$data" "$kind"
		} >"$data/$name.gp"
		for terminal in "png:pngcairo noenhanced" "svg:svg noenhanced dynamic"; do
			gnuplot -e "set terminal ${terminal#*:} size $width,$height font '$BENCH_FONT'" \
				-e "set output '$2/$name.${terminal%%:*}'" "$data/$name.gp" ||
				die "gnuplot failed on $data/$name.gp"
		done
	done
}
