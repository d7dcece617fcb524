/* csv — the cells of the CSV files brisk writes (run, compare and report
 * --csv): RFC 4180, and nothing a spreadsheet program would run.
 *
 * Contract:
 *  - csv_text: a text cell (any text: a host, model or kernel name from a
 *    result file, an arm's label, a list of machines, an action's name).
 *    The text is escaped first (text_escape: control, bidirectional and
 *    invisible characters and invalid UTF-8 as \xHH, '\' as \\, TAB kept),
 *    then written in double quotes with every '"' doubled, so no comma,
 *    quote or line break in it ends the cell or the row.  A text that
 *    begins with '=', '+', '-', '@', TAB or CR (what Excel, LibreOffice
 *    Calc and Google Sheets take as the start of a formula, even in
 *    quotes) gets an apostrophe in front, inside the quotes: "'=cmd|..."
 *    is shown as the text it is and never evaluated (OWASP's advice on CSV
 *    injection).  0, or -ENOMEM (nothing written).
 *  - csv_num / csv_fixed: a number brisk computed, plain ("%.*g" /
 *    "%.*f"), never quoted nor prefixed: -0.5 stays a number.  Not finite:
 *    an empty cell (nothing written).
 *  - Neither writes the separating comma or the line's end; write errors
 *    are the stream's (ferror), as with fprintf.
 */
#ifndef BRISK_CSV_H
#define BRISK_CSV_H

#include <stdio.h>

int csv_text(FILE *f, const char *s);
void csv_num(FILE *f, double v, int digits);
void csv_fixed(FILE *f, double v, int decimals);

#endif
