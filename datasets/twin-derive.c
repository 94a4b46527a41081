/* Dataset twins (ovsdb-stats --profile): a profile derived from a database
 * file that describes its shape and none of its contents; see
 * twin-derive.h and datasets/README.md ("Dataset twins").  Counting is in
 * twin-stats.c, the decisions in twin-decide.c, the text in twin-write.c,
 * string shapes and histograms in twin-shape.c. */
#include "twin-derive.h"

#include "db-counts.h"
#include "ds.h"
#include "twin-stats.h"

void
twin_derive(const struct db_file *db, const struct twin_options *opt,
            struct ds *out)
{
    /* Every row checked against the schema first (an error names file,
     * record and byte offset), so the passes can trust the types. */
    struct db_counts dc;
    db_counts_compute(&dc, db, false);
    db_counts_destroy(&dc);

    struct deriver d;
    deriver_init(&d, db, opt);
    visit_rows(&d, 1);
    twin_decide(&d);
    visit_rows(&d, 2);
    twin_write_profile(&d, out);
    deriver_destroy(&d);
}
