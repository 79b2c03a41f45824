# fuzz-stuck.awk: where a fuzz -v run that hung was (t_fuzz.sh,
# bench/fuzz.sh). Its stderr has the schedules ("# s=SEED l=LANE step K
# SHAPE off=...") and, as rank 0 begins each step, "# s=SEED l=LANE step K
# starts": prints ", stuck in seed S lane L step K (SHAPE)" per lane, or
# nothing.
/^# s=[0-9]* l=[0-9]* step [0-9]* [a-z-]* off=/ { shape[$2 " " $3 " " $5] = $6 }
/^# s=[0-9]* l=[0-9]* step [0-9]* starts$/ { at[$3] = $2 " " $3 " " $5 }
END {
    for (l in at) {
        split(at[l], w, " ")
        sub(/s=/, "", w[1])
        sub(/l=/, "", w[2])
        printf "%sseed %s lane %s step %s (%s)", n++ ? "; " : ", stuck in ", w[1], w[2], w[3], shape[at[l]]
    }
}
