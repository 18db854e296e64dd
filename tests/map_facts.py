"""Map facts written into the tests, one line per entry, to lock every map file.

Routes: ``id|a|b|colour|length|pair|toll`` (pair and toll empty when none);
tickets: ``id|a|b|points|neutral route`` (neutral empty when none).
These are the printed games' facts, typed into the tests on purpose: a change
to a map file must be matched here by hand.
"""

from __future__ import annotations

NEWYORK_ROUTES = """
0|Lincoln Center|Central Park|orange|2||
1|Lincoln Center|Midtown West|red|2||
2|Lincoln Center|Times Square|green|2|1|
3|Lincoln Center|Times Square|blue|2|1|
4|Central Park|Times Square|black|2|2|
5|Central Park|Times Square|red|2|2|
6|Central Park|United Nations|pink|3||
7|Midtown West|Times Square|gray|1||
8|Midtown West|Empire State Building|green|2||
9|Midtown West|Chelsea|blue|2||
10|Times Square|United Nations|gray|2||
11|Times Square|Empire State Building|orange|1|3|
12|Times Square|Empire State Building|pink|1|3|
13|United Nations|Empire State Building|black|2||
14|United Nations|Gramercy Park|green|3||
15|Empire State Building|Gramercy Park|red|1|4|
16|Empire State Building|Gramercy Park|blue|1|4|
17|Chelsea|Empire State Building|gray|2|5|
18|Chelsea|Empire State Building|gray|2|5|
19|Chelsea|Gramercy Park|orange|2||
20|Chelsea|Greenwich Village|green|3|6|
21|Chelsea|Greenwich Village|red|3|6|
22|Chelsea|Soho|pink|4||
23|Gramercy Park|Greenwich Village|black|2|7|
24|Gramercy Park|Greenwich Village|pink|2|7|
25|Gramercy Park|East Village|gray|2||
26|Greenwich Village|East Village|blue|2||
27|Greenwich Village|Soho|orange|2||
28|Greenwich Village|Chinatown|gray|2|8|
29|Greenwich Village|Chinatown|gray|2|8|
30|Greenwich Village|Lower East Side|gray|2||
31|East Village|Lower East Side|black|1||
32|Lower East Side|Chinatown|blue|1||
33|Lower East Side|Brooklyn|gray|3||
34|Soho|Wall Street|gray|2||
35|Chinatown|Wall Street|green|1|9|
36|Chinatown|Wall Street|pink|1|9|
37|Chinatown|Brooklyn|orange|3|10|
38|Chinatown|Brooklyn|red|3|10|
39|Wall Street|Brooklyn|blue|3|11|
40|Wall Street|Brooklyn|black|3|11|
"""
NEWYORK_TICKETS = """
0|Lower East Side|Wall Street|2|
1|Central Park|Midtown West|3|
2|Lincoln Center|Empire State Building|3|
3|Empire State Building|Greenwich Village|3|
4|Midtown West|United Nations|3|
5|Central Park|Gramercy Park|4|
6|Gramercy Park|Chinatown|4|
7|Times Square|East Village|4|
8|East Village|Soho|4|
9|Central Park|Chelsea|5|
10|Lincoln Center|Greenwich Village|6|
11|Times Square|Soho|6|
12|Chelsea|Wall Street|6|
13|Empire State Building|Brooklyn|7|
14|Central Park|Chinatown|8|
15|Chelsea|Brooklyn|8|
16|Times Square|Brooklyn|8|
17|United Nations|Wall Street|8|
"""
NEDERLAND_ROUTES = """
0|Waddeneilanden|Leeuwarden|green|2||3
1|Waddeneilanden|Groningen|yellow|6||4
2|Waddeneilanden|Sneek|gray|3||4
3|Waddeneilanden|Den Helder|purple|5||4
4|Leeuwarden|Groningen|blue|3|1|2
5|Leeuwarden|Groningen|orange|3|1|2
6|Leeuwarden|Sneek|black|1|2|1
7|Leeuwarden|Sneek|yellow|1|2|1
8|Groningen|Emden|gray|3|3|3
9|Groningen|Emden|gray|3|3|3
10|Groningen|Emmen|red|3|4|3
11|Groningen|Emmen|black|3|4|3
12|Groningen|Zwolle|green|6|5|4
13|Groningen|Zwolle|white|6|5|4
14|Emden|Emmen|purple|4||4
15|Emden|Lingen|gray|6|6|1
16|Emden|Lingen|black|6|6|1
17|Sneek|Den Helder|white|4|7|3
18|Sneek|Den Helder|red|4|7|3
19|Sneek|Lelystad|blue|4|8|3
20|Sneek|Lelystad|green|4|8|3
21|Den Helder|Haarlem|blue|4|9|2
22|Den Helder|Haarlem|orange|4|9|2
23|Emmen|Lingen|yellow|3|10|2
24|Emmen|Lingen|green|3|10|2
25|Emmen|Zwolle|gray|4||3
26|Lingen|Enschede|red|3|11|3
27|Lingen|Enschede|purple|3|11|3
28|Lelystad|Zwolle|black|2|12|4
29|Lelystad|Zwolle|red|2|12|4
30|Lelystad|Amsterdam|yellow|3|13|3
31|Lelystad|Amsterdam|white|3|13|3
32|Zwolle|Enschede|blue|4|14|1
33|Zwolle|Enschede|yellow|4|14|1
34|Zwolle|Arnhem|orange|4|15|2
35|Zwolle|Arnhem|purple|4|15|2
36|Enschede|Arnhem|green|5|16|2
37|Enschede|Arnhem|black|5|16|2
38|Enschede|Duisburg|white|6|17|1
39|Enschede|Duisburg|orange|6|17|1
40|Haarlem|Amsterdam|green|1|18|1
41|Haarlem|Amsterdam|black|1|18|1
42|Haarlem|'s-Gravenhage|white|2|19|2
43|Haarlem|'s-Gravenhage|purple|2|19|2
44|Amsterdam|Utrecht|purple|1|20|1
45|Amsterdam|Utrecht|orange|1|20|1
46|Amsterdam|Rotterdam|red|4|21|2
47|Amsterdam|Rotterdam|blue|4|21|2
48|Utrecht|Arnhem|white|4|22|1
49|Utrecht|Arnhem|blue|4|22|1
50|Utrecht|Rotterdam|gray|3||3
51|Utrecht|'s-Hertogenbosch|red|3|23|4
52|Utrecht|'s-Hertogenbosch|black|3|23|4
53|Arnhem|Nijmegen|yellow|1|24|3
54|Arnhem|Nijmegen|red|1|24|3
55|'s-Gravenhage|Rotterdam|green|1|25|1
56|'s-Gravenhage|Rotterdam|orange|1|25|1
57|'s-Gravenhage|Middelburg|red|6|26|4
58|'s-Gravenhage|Middelburg|yellow|6|26|4
59|Rotterdam|Breda|yellow|2|27|4
60|Rotterdam|Breda|purple|2|27|4
61|Rotterdam|Antwerpen|black|5|28|4
62|Rotterdam|Antwerpen|white|5|28|4
63|Nijmegen|Duisburg|purple|4|29|2
64|Nijmegen|Duisburg|blue|4|29|2
65|Nijmegen|Eindhoven|orange|3|30|3
66|Nijmegen|Eindhoven|black|3|30|3
67|Duisburg|Roermond|green|3|31|2
68|Duisburg|Roermond|yellow|3|31|2
69|'s-Hertogenbosch|Breda|white|2|32|2
70|'s-Hertogenbosch|Breda|orange|2|32|2
71|'s-Hertogenbosch|Eindhoven|blue|1|33|2
72|'s-Hertogenbosch|Eindhoven|green|1|33|2
73|Breda|Turnhout|black|2|34|2
74|Breda|Turnhout|blue|2|34|2
75|Eindhoven|Roermond|red|3|35|3
76|Eindhoven|Roermond|white|3|35|3
77|Eindhoven|Maastricht|yellow|4|36|2
78|Eindhoven|Maastricht|purple|4|36|2
79|Roermond|Maastricht|black|2|37|1
80|Roermond|Maastricht|orange|2|37|1
81|Middelburg|Antwerpen|orange|5|38|3
82|Middelburg|Antwerpen|green|5|38|3
83|Turnhout|Antwerpen|red|2|39|2
84|Turnhout|Antwerpen|purple|2|39|2
85|Turnhout|Hasselt|yellow|3|40|3
86|Turnhout|Hasselt|orange|3|40|3
87|Antwerpen|Aarschot|yellow|2|41|1
88|Antwerpen|Aarschot|blue|2|41|1
89|Hasselt|Aarschot|black|2|42|1
90|Hasselt|Aarschot|purple|2|42|1
91|Hasselt|Maastricht|green|2|43|2
92|Hasselt|Maastricht|red|2|43|2
93|Hasselt|Liège|gray|2||1
94|Aarschot|Liège|red|5||1
95|Maastricht|Liège|white|2|44|1
96|Maastricht|Liège|blue|2|44|1
"""
NEDERLAND_TICKETS = """
0|Breda|Eindhoven|7|Rotterdam–Antwerpen
1|Amsterdam|'s-Gravenhage|9|Roermond–Duisburg
2|Amsterdam|Rotterdam|10|
3|Arnhem|'s-Hertogenbosch|10|Groningen–Zwolle
4|Haarlem|Breda|12|Zwolle–Arnhem
5|Liège|Duisburg|12|Rotterdam–Antwerpen
6|Rotterdam|Turnhout|12|Utrecht–'s-Hertogenbosch
7|Amsterdam|Nijmegen|13|Maastricht–Liège
8|Emmen|Lelystad|13|Amsterdam–Rotterdam
9|Rotterdam|Antwerpen|13|
10|'s-Gravenhage|Antwerpen|14|
11|Arnhem|'s-Gravenhage|14|Enschede–Duisburg
12|Den Helder|Rotterdam|14|Lelystad–Sneek
13|Groningen|Enschede|14|Middelburg–Antwerpen
14|Lingen|Duisburg|14|
15|Zwolle|Haarlem|14|Nijmegen–Eindhoven
16|Enschede|Amsterdam|15|'s-Gravenhage–Rotterdam
17|Enschede|Eindhoven|15|Haarlem–Den Helder
18|Leeuwarden|Haarlem|15|Utrecht–Arnhem
19|Emden|Waddeneilanden|16|Amsterdam–Lelystad
20|Sneek|Utrecht|16|'s-Gravenhage–Middelburg
21|Zwolle|Rotterdam|17|Haarlem–'s-Gravenhage
22|'s-Gravenhage|Liège|18|Amsterdam–Rotterdam
23|Zwolle|Maastricht|18|'s-Hertogenbosch–Eindhoven
24|Amsterdam|Antwerpen|19|
25|Utrecht|Middelburg|19|Nijmegen–Duisburg
26|Amsterdam|Maastricht|20|Zwolle–Enschede
27|Waddeneilanden|'s-Gravenhage|20|Arnhem–Nijmegen
28|Groningen|Amsterdam|21|'s-Hertogenbosch–Breda
29|Nijmegen|Antwerpen|21|Rotterdam–Breda
30|Roermond|Middelburg|21|Lelystad–Zwolle
31|Emden|Utrecht|22|Leeuwarden–Groningen
32|Utrecht|Hasselt|22|Amsterdam–Haarlem
33|Duisburg|Rotterdam|23|
34|Leeuwarden|'s-Hertogenbosch|24|Groningen–Emmen
35|Lelystad|Aarschot|24|
36|Lingen|'s-Gravenhage|26|Eindhoven–Maastricht
37|Sneek|Eindhoven|26|Amsterdam–Utrecht
38|Den Helder|Liège|29|
39|Groningen|Breda|31|Sneek–Leeuwarden
40|Waddeneilanden|Duisburg|31|
41|Leeuwarden|Antwerpen|32|Groningen–Emden
42|Emmen|Antwerpen|33|Arnhem–Enschede
43|Groningen|Middelburg|34|Eindhoven–Roermond
"""


def routes(table: str) -> list[tuple[int, str, str, str, int, int | None, int | None]]:
    rows = []
    for line in table.strip().splitlines():
        ident, a, b, colour, length, pair, toll = line.split("|")
        rows.append(
            (
                int(ident),
                a,
                b,
                colour,
                int(length),
                int(pair) if pair else None,
                int(toll) if toll else None,
            )
        )
    return rows


def tickets(table: str) -> list[tuple[int, str, str, int, tuple[str, str] | None]]:
    rows = []
    for line in table.strip().splitlines():
        ident, a, b, points, neutral = line.split("|")
        route = tuple(neutral.split("–")) if neutral else None
        rows.append((int(ident), a, b, int(points), route))  # type: ignore[arg-type]
    return rows


# The base game (USA): routes and tickets of the original game; no tolls, no
# neutral routes.
USA_ROUTES = """
0|Atlanta|Charleston|gray|2||
1|Atlanta|Miami|blue|5||
2|Atlanta|Nashville|gray|1||
3|Atlanta|New Orleans|orange|4|1|
4|Atlanta|New Orleans|yellow|4|1|
5|Atlanta|Raleigh|gray|2|2|
6|Atlanta|Raleigh|gray|2|2|
7|Boston|Montréal|gray|2|3|
8|Boston|Montréal|gray|2|3|
9|Boston|New York|red|2|4|
10|Boston|New York|yellow|2|4|
11|Calgary|Helena|gray|4||
12|Calgary|Seattle|gray|4||
13|Calgary|Vancouver|gray|3||
14|Calgary|Winnipeg|white|6||
15|Charleston|Miami|purple|4||
16|Charleston|Raleigh|gray|2||
17|Chicago|Duluth|red|3||
18|Chicago|Omaha|blue|4||
19|Chicago|Pittsburgh|black|3|5|
20|Chicago|Pittsburgh|orange|3|5|
21|Chicago|Saint Louis|green|2|6|
22|Chicago|Saint Louis|white|2|6|
23|Chicago|Toronto|white|4||
24|Dallas|El Paso|red|4||
25|Dallas|Houston|gray|1|7|
26|Dallas|Houston|gray|1|7|
27|Dallas|Little Rock|gray|2||
28|Dallas|Oklahoma City|gray|2|8|
29|Dallas|Oklahoma City|gray|2|8|
30|Denver|Helena|green|4||
31|Denver|Kansas City|black|4|9|
32|Denver|Kansas City|orange|4|9|
33|Denver|Oklahoma City|red|4||
34|Denver|Omaha|purple|4||
35|Denver|Phoenix|white|5||
36|Denver|Salt Lake City|red|3|10|
37|Denver|Salt Lake City|yellow|3|10|
38|Denver|Santa Fe|gray|2||
39|Duluth|Helena|orange|6||
40|Duluth|Omaha|gray|2|11|
41|Duluth|Omaha|gray|2|11|
42|Duluth|Sault St. Marie|gray|3||
43|Duluth|Toronto|purple|6||
44|Duluth|Winnipeg|black|4||
45|El Paso|Houston|green|6||
46|El Paso|Los Angeles|black|6||
47|El Paso|Oklahoma City|yellow|5||
48|El Paso|Phoenix|gray|3||
49|El Paso|Santa Fe|gray|2||
50|Helena|Omaha|red|5||
51|Helena|Salt Lake City|purple|3||
52|Helena|Seattle|yellow|6||
53|Helena|Winnipeg|blue|4||
54|Houston|New Orleans|gray|2||
55|Kansas City|Oklahoma City|gray|2|12|
56|Kansas City|Oklahoma City|gray|2|12|
57|Kansas City|Omaha|gray|1|13|
58|Kansas City|Omaha|gray|1|13|
59|Kansas City|Saint Louis|blue|2|14|
60|Kansas City|Saint Louis|purple|2|14|
61|Las Vegas|Los Angeles|gray|2||
62|Las Vegas|Salt Lake City|orange|3||
63|Little Rock|Nashville|white|3||
64|Little Rock|New Orleans|green|3||
65|Little Rock|Oklahoma City|gray|2||
66|Little Rock|Saint Louis|gray|2||
67|Los Angeles|Phoenix|gray|3||
68|Los Angeles|San Francisco|purple|3|15|
69|Los Angeles|San Francisco|yellow|3|15|
70|Miami|New Orleans|red|6||
71|Montréal|New York|blue|3||
72|Montréal|Sault St. Marie|black|5||
73|Montréal|Toronto|gray|3||
74|Nashville|Pittsburgh|yellow|4||
75|Nashville|Raleigh|black|3||
76|Nashville|Saint Louis|gray|2||
77|New York|Pittsburgh|green|2|16|
78|New York|Pittsburgh|white|2|16|
79|New York|Washington|black|2|17|
80|New York|Washington|orange|2|17|
81|Oklahoma City|Santa Fe|blue|3||
82|Phoenix|Santa Fe|gray|3||
83|Pittsburgh|Raleigh|gray|2||
84|Pittsburgh|Saint Louis|green|5||
85|Pittsburgh|Toronto|gray|2||
86|Pittsburgh|Washington|gray|2||
87|Portland|Salt Lake City|blue|6||
88|Portland|San Francisco|green|5|18|
89|Portland|San Francisco|purple|5|18|
90|Portland|Seattle|gray|1|19|
91|Portland|Seattle|gray|1|19|
92|Raleigh|Washington|gray|2|20|
93|Raleigh|Washington|gray|2|20|
94|Salt Lake City|San Francisco|orange|5|21|
95|Salt Lake City|San Francisco|white|5|21|
96|Sault St. Marie|Toronto|gray|2||
97|Sault St. Marie|Winnipeg|gray|6||
98|Seattle|Vancouver|gray|1|22|
99|Seattle|Vancouver|gray|1|22|
"""
USA_TICKETS = """
0|Boston|Miami|12|
1|Calgary|Phoenix|13|
2|Calgary|Salt Lake City|7|
3|Chicago|New Orleans|7|
4|Chicago|Santa Fe|9|
5|Dallas|New York|11|
6|Denver|El Paso|4|
7|Denver|Pittsburgh|11|
8|Duluth|El Paso|10|
9|Duluth|Houston|8|
10|Helena|Los Angeles|8|
11|Kansas City|Houston|5|
12|Los Angeles|Chicago|16|
13|Los Angeles|Miami|20|
14|Los Angeles|New York|21|
15|Montréal|Atlanta|9|
16|Montréal|New Orleans|13|
17|New York|Atlanta|6|
18|Portland|Nashville|17|
19|Portland|Phoenix|11|
20|San Francisco|Atlanta|17|
21|Sault St. Marie|Nashville|8|
22|Sault St. Marie|Oklahoma City|9|
23|Seattle|Los Angeles|9|
24|Seattle|New York|22|
25|Toronto|Miami|10|
26|Vancouver|Montréal|20|
27|Vancouver|Santa Fe|13|
28|Winnipeg|Houston|12|
29|Winnipeg|Little Rock|11|
"""


# Amsterdam: routes (no tolls; the toll column stays empty) and the 4 contracts
# legible on the board photo. Routes 9, 10 and 34 are covered in the photo: gray
# from one transcription, cart symbol unread (not in AMSTERDAM_CART_ROUTES).
AMSTERDAM_ROUTES = """
0|Nieuwe Waal|Haringpakkerstoren|pink|2|1|
1|Nieuwe Waal|Haringpakkerstoren|gray|2|1|
2|Nieuwe Waal|Noordermarkt|green|2||
3|Haringpakkerstoren|Oude Waal|gray|4||
4|Haringpakkerstoren|Noordermarkt|blue|3||
5|Haringpakkerstoren|Korenmetershuisje|red|1|2|
6|Haringpakkerstoren|Korenmetershuisje|gray|1|2|
7|Oude Waal|Montelbaanstoren|orange|2||
8|Oude Waal|Waag|gray|1||
9|Oude Waal|Oude Kerk|gray|2||
10|Noordermarkt|Korenmetershuisje|gray|3||
11|Noordermarkt|Jordaan|red|2||
12|Noordermarkt|Jan Roodenpoortstoren|gray|3||
13|Korenmetershuisje|Oude Kerk|green|1|3|
14|Korenmetershuisje|Oude Kerk|blue|1|3|
15|Korenmetershuisje|Jan Roodenpoortstoren|orange|2|4|
16|Korenmetershuisje|Jan Roodenpoortstoren|black|2|4|
17|Oude Kerk|Waag|black|1|5|
18|Oude Kerk|Waag|red|1|5|
19|Oude Kerk|Dam|pink|2|6|
20|Oude Kerk|Dam|orange|2|6|
21|Waag|Montelbaanstoren|green|2|7|
22|Waag|Montelbaanstoren|pink|2|7|
23|Waag|Oost-Indisch Huis|blue|1|8|
24|Waag|Oost-Indisch Huis|orange|1|8|
25|Jordaan|Jan Roodenpoortstoren|gray|3||
26|Jordaan|Westermarkt|orange|2||
27|Jordaan|De Drie Hendricken|gray|2||
28|Jan Roodenpoortstoren|Westermarkt|green|1|9|
29|Jan Roodenpoortstoren|Westermarkt|gray|1|9|
30|Jan Roodenpoortstoren|Dam|red|1|10|
31|Jan Roodenpoortstoren|Dam|blue|1|10|
32|Dam|Oost-Indisch Huis|green|3|11|
33|Dam|Oost-Indisch Huis|black|3|11|
34|Dam|Begijnhof|gray|2||
35|Westermarkt|De Drie Hendricken|pink|1|12|
36|Westermarkt|De Drie Hendricken|black|1|12|
37|Westermarkt|Begijnhof|red|3||
38|De Drie Hendricken|Begijnhof|gray|4||
39|Begijnhof|Munttoren|black|2||
40|Munttoren|Blauwbrug|blue|3||
41|Munttoren|Oost-Indisch Huis|gray|2||
42|Oost-Indisch Huis|Blauwbrug|red|2|13|
43|Oost-Indisch Huis|Blauwbrug|pink|2|13|
44|Blauwbrug|Montelbaanstoren|gray|4||
"""
# Routes whose spaces show carts (the merchandise variant).
AMSTERDAM_CART_ROUTES = [0, 1, 2, 3, 4, 7, 11, 26, 27, 35, 36, 37, 38, 39, 40, 44]
AMSTERDAM_TICKETS = """
0|Dam|De Drie Hendricken|3|
1|Oude Waal|Blauwbrug|4|
2|Jordaan|Oude Kerk|6|
3|Noordermarkt|Waag|5|
"""


# Europe: routes (no tolls; the toll column stays empty) and tickets; route and
# ticket ids are the reference tables' numbers minus one. The tunnels, the ferries'
# locomotive spaces and the long tickets are locked by the lists below.
EUROPE_ROUTES = """
0|Amsterdam|Bruxelles|black|1||
1|Amsterdam|Essen|yellow|3||
2|Amsterdam|Frankfurt|white|2||
3|Amsterdam|London|gray|2||
4|Angora|Constantinople|gray|2||
5|Angora|Erzurum|black|3||
6|Angora|Smyrna|orange|3||
7|Athina|Brindisi|gray|4||
8|Athina|Sarajevo|green|4||
9|Athina|Smyrna|gray|2||
10|Athina|Sofia|purple|3||
11|Barcelona|Madrid|yellow|2||
12|Barcelona|Marseille|gray|4||
13|Barcelona|Pamplona|gray|2||
14|Berlin|Danzig|gray|4||
15|Berlin|Essen|blue|2||
16|Berlin|Frankfurt|black|3|1|
17|Berlin|Frankfurt|red|3|1|
18|Berlin|Warszawa|purple|4|2|
19|Berlin|Warszawa|yellow|4|2|
20|Berlin|Wien|green|3||
21|Brest|Dieppe|orange|2||
22|Brest|Pamplona|purple|4||
23|Brest|Paris|black|3||
24|Brindisi|Palermo|gray|3||
25|Brindisi|Roma|white|2||
26|Bruxelles|Dieppe|green|2||
27|Bruxelles|Frankfurt|blue|2||
28|Bruxelles|Paris|red|2|3|
29|Bruxelles|Paris|yellow|2|3|
30|Bucuresti|Budapest|gray|4||
31|Bucuresti|Constantinople|yellow|3||
32|Bucuresti|Kyiv|gray|4||
33|Bucuresti|Sevastopol|white|4||
34|Bucuresti|Sofia|gray|2||
35|Budapest|Kyiv|gray|6||
36|Budapest|Sarajevo|purple|3||
37|Budapest|Wien|red|1|4|
38|Budapest|Wien|white|1|4|
39|Budapest|Zagrab|orange|2||
40|Cadiz|Lisboa|blue|2||
41|Cadiz|Madrid|orange|3||
42|Constantinople|Sevastopol|gray|4||
43|Constantinople|Smyrna|gray|2||
44|Constantinople|Sofia|blue|3||
45|Danzig|Riga|black|3||
46|Danzig|Warszawa|gray|2||
47|Dieppe|London|gray|2|5|
48|Dieppe|London|gray|2|5|
49|Dieppe|Paris|purple|1||
50|Edinburgh|London|black|4|6|
51|Edinburgh|London|orange|4|6|
52|Erzurum|Sevastopol|gray|4||
53|Erzurum|Sochi|red|3||
54|Essen|Frankfurt|green|2||
55|Essen|Kobenhavn|gray|3|7|
56|Essen|Kobenhavn|gray|3|7|
57|Frankfurt|München|purple|2||
58|Frankfurt|Paris|orange|3|8|
59|Frankfurt|Paris|white|3|8|
60|Kharkov|Kyiv|gray|4||
61|Kharkov|Moskva|gray|4||
62|Kharkov|Rostov|green|2||
63|Kobenhavn|Stockholm|white|3|9|
64|Kobenhavn|Stockholm|yellow|3|9|
65|Kyiv|Smolensk|red|3||
66|Kyiv|Warszawa|gray|4||
67|Kyiv|Wilno|gray|2||
68|Lisboa|Madrid|purple|3||
69|Madrid|Pamplona|black|3|10|
70|Madrid|Pamplona|white|3|10|
71|Marseille|Pamplona|red|4||
72|Marseille|Paris|gray|4||
73|Marseille|Roma|gray|4||
74|Marseille|Zürich|purple|2||
75|Moskva|Petrograd|white|4||
76|Moskva|Smolensk|orange|2||
77|München|Venezia|blue|2||
78|München|Wien|orange|3||
79|München|Zürich|yellow|2||
80|Palermo|Roma|gray|4||
81|Palermo|Smyrna|gray|6||
82|Pamplona|Paris|blue|4|11|
83|Pamplona|Paris|green|4|11|
84|Paris|Zürich|gray|3||
85|Petrograd|Riga|gray|4||
86|Petrograd|Stockholm|gray|8||
87|Petrograd|Wilno|blue|4||
88|Riga|Wilno|green|4||
89|Roma|Venezia|black|2||
90|Rostov|Sevastopol|gray|4||
91|Rostov|Sochi|gray|2||
92|Sarajevo|Sofia|gray|2||
93|Sarajevo|Zagrab|red|3||
94|Sevastopol|Sochi|gray|2||
95|Smolensk|Wilno|yellow|3||
96|Venezia|Zagrab|gray|2||
97|Venezia|Zürich|green|2||
98|Warszawa|Wien|blue|4||
99|Warszawa|Wilno|red|3||
100|Wien|Zagrab|gray|2||
"""
# Tunnels (the dark outline around the spaces).
EUROPE_TUNNEL_ROUTES = [4, 6, 13, 30, 34, 35, 43, 53, 69, 70, 73, 74, 77, 79, 84, 86, 92, 97]
# Ferries: route id -> locomotive spaces (17 in all).
EUROPE_FERRY_LOCOMOTIVES = {
    3: 2,
    7: 1,
    9: 1,
    24: 1,
    42: 2,
    47: 1,
    48: 1,
    52: 2,
    55: 1,
    56: 1,
    80: 1,
    81: 2,
    94: 1,
}
EUROPE_TICKETS = """
0|Brest|Petrograd|20|
1|Cadiz|Stockholm|21|
2|Edinburgh|Athina|21|
3|Kobenhavn|Erzurum|21|
4|Lisboa|Danzig|20|
5|Palermo|Moskva|20|
6|Amsterdam|Pamplona|7|
7|Amsterdam|Wilno|12|
8|Angora|Kharkov|10|
9|Athina|Angora|5|
10|Athina|Wilno|11|
11|Barcelona|Bruxelles|8|
12|Barcelona|München|8|
13|Berlin|Bucuresti|8|
14|Berlin|Moskva|12|
15|Berlin|Roma|9|
16|Brest|Marseille|7|
17|Brest|Venezia|8|
18|Bruxelles|Danzig|9|
19|Budapest|Sofia|5|
20|Edinburgh|Paris|7|
21|Essen|Kyiv|10|
22|Frankfurt|Kobenhavn|5|
23|Frankfurt|Smolensk|13|
24|Kyiv|Petrograd|6|
25|Kyiv|Sochi|8|
26|London|Berlin|7|
27|London|Wien|10|
28|Madrid|Dieppe|8|
29|Madrid|Zürich|8|
30|Marseille|Essen|8|
31|Palermo|Constantinople|8|
32|Paris|Wien|8|
33|Paris|Zagrab|7|
34|Riga|Bucuresti|10|
35|Roma|Smyrna|8|
36|Rostov|Erzurum|5|
37|Sarajevo|Sevastopol|8|
38|Smolensk|Rostov|8|
39|Sofia|Smyrna|5|
40|Stockholm|Wien|11|
41|Venezia|Constantinople|10|
42|Warszawa|Smolensk|6|
43|Zagrab|Brindisi|6|
44|Zürich|Brindisi|6|
45|Zürich|Budapest|6|
"""
# The long tickets (blue background).
EUROPE_LONG_TICKETS = [0, 1, 2, 3, 4, 5]


# Switzerland: routes (no tolls; the toll column stays empty), the 34 city-to-city
# tickets and the 12 country tickets; route ids are the reference table's numbers
# minus one. Ticket ids: the city-to-city tickets first (0-33, in the reference's
# order), then the city-to-country tickets (34-37) and the country-to-country
# tickets, two copies of each on consecutive ids (38-45). The tunnels and the
# countries' border points are locked by the lists below.
SWITZERLAND_ROUTES = """
0|Olten|Zürich|white|3||
1|St. Gallen|Zürich|black|4||
2|Baden|Zürich|yellow|1||
3|Winterthur|Zürich|blue|1|1|
4|Winterthur|Zürich|purple|1|1|
5|Schaffhausen|Winterthur|white|1|2|
6|Schaffhausen|Winterthur|black|1|2|
7|Kreuzlingen|Winterthur|yellow|2||
8|St. Gallen|Winterthur|red|3||
9|Kreuzlingen|St. Gallen|green|1||
10|Kreuzlingen|Schaffhausen|purple|3||
11|Schaffhausen|Zürich|orange|3||
12|Baden|Olten|purple|2||
13|Olten|Solothurn|blue|1||
14|Pfäffikon|Zürich|blue|2||
15|Pfäffikon|St. Gallen|orange|3||
16|Zug|Zürich|red|1|3|
17|Zug|Zürich|green|1|3|
18|Schwyz|Zug|white|1|4|
19|Schwyz|Zug|black|1|4|
20|Pfäffikon|Schwyz|purple|1||
21|Luzern|Schwyz|blue|1||
22|Luzern|Zug|orange|1|5|
23|Luzern|Zug|yellow|1|5|
24|Luzern|Olten|green|3||
25|Bern|Luzern|gray|4|6|
26|Bern|Luzern|gray|4|6|
27|Bern|Solothurn|black|2||
28|Bern|Neuchâtel|red|2||
29|Neuchâtel|Solothurn|green|4||
30|Neuchâtel|Yverdon|black|2||
31|Bern|Fribourg|orange|1|7|
32|Bern|Fribourg|yellow|1|7|
33|Bern|Interlaken|blue|3||
34|Fribourg|Lausanne|red|3|8|
35|Fribourg|Lausanne|purple|3|8|
36|Interlaken|Luzern|purple|4||
37|Lausanne|Neuchâtel|gray|4||
38|Genève|Yverdon|gray|6||
39|Genève|Lausanne|blue|4|9|
40|Genève|Lausanne|white|4|9|
41|Genève|France 2|yellow|1||
42|Schaffhausen|Deutschland 2|yellow|1||
43|Kreuzlingen|Deutschland 3|orange|1||
44|Kreuzlingen|Deutschland 4|white|1||
45|St. Gallen|Deutschland 5|gray|2||
46|La Chaux-de-Fonds|Yverdon|yellow|3||
47|Delémont|La Chaux-de-Fonds|white|3||
48|Delémont|Solothurn|purple|1||
49|Basel|Delémont|yellow|2||
50|Basel|Olten|orange|2||
51|Baden|Basel|red|3||
52|Lausanne|Martigny|orange|4||
53|Martigny|Sion|green|2||
54|Brig|Sion|black|3||
55|Brig|Interlaken|white|2||
56|Brig|Wassen|red|4||
57|Brig|Locarno|gray|6||
58|Locarno|Lugano|purple|1||
59|Bellinzona|Locarno|black|1||
60|Bellinzona|Lugano|red|1|10|
61|Bellinzona|Lugano|yellow|1|10|
62|Bellinzona|Wassen|gray|4|11|
63|Bellinzona|Wassen|gray|4|11|
64|Schwyz|Wassen|yellow|2|12|
65|Schwyz|Wassen|green|2|12|
66|Chur|Wassen|gray|5||
67|Brusio|Chur|gray|5||
68|Chur|Sargans|white|1||
69|Pfäffikon|Sargans|yellow|3||
70|Sargans|Vaduz|orange|1||
71|St. Gallen|Vaduz|blue|2||
72|Davos|Sargans|black|3||
73|Chur|Davos|purple|2||
74|Brusio|Davos|blue|4||
75|La Chaux-de-Fonds|France 3|green|2||
76|Delémont|France 4|black|2||
77|Basel|Deutschland 1|blue|1||
78|St. Gallen|Österreich 1|gray|4||
79|Vaduz|Österreich 2|red|1||
80|Davos|Österreich 3|gray|3||
81|Davos|Italia 1|gray|3||
82|Brusio|Italia 2|green|2||
83|Lugano|Italia 3|white|2||
84|Locarno|Italia 4|orange|2||
85|Brig|Italia 5|green|3||
86|Martigny|France 1|gray|2||
87|La Chaux-de-Fonds|Neuchâtel|orange|1||
"""
# Tunnels (the dark outline around the spaces): the 42 routes 46 to 87.
SWITZERLAND_TUNNEL_ROUTES = list(range(46, 88))
# The countries a ticket end may name -> their border points.
SWITZERLAND_REGIONS = {
    "France": ["France 1", "France 2", "France 3", "France 4"],
    "Deutschland": [
        "Deutschland 1",
        "Deutschland 2",
        "Deutschland 3",
        "Deutschland 4",
        "Deutschland 5",
    ],
    "Österreich": ["Österreich 1", "Österreich 2", "Österreich 3"],
    "Italia": ["Italia 1", "Italia 2", "Italia 3", "Italia 4", "Italia 5"],
}
SWITZERLAND_TICKETS = """
0|Basel|Bern|5|
1|Basel|Brig|10|
2|Basel|St. Gallen|8|
3|Bern|Chur|10|
4|Bern|Schwyz|5|
5|Bern|Lugano|12|
6|Bern|Zürich|6|
7|Fribourg|Luzern|5|
8|Genève|Basel|13|
9|Genève|Bern|8|
10|Genève|Sion|10|
11|Genève|Zürich|14|
12|Interlaken|Winterthur|7|
13|Kreuzlingen|Zürich|3|
14|La Chaux-de-Fonds|Bern|3|
15|La Chaux-de-Fonds|Luzern|7|
16|La Chaux-de-Fonds|Zürich|8|
17|Lausanne|Interlaken|7|
18|Lausanne|Luzern|8|
19|Lausanne|St. Gallen|13|
20|Luzern|Vaduz|6|
21|Lugano|Chur|10|
22|Luzern|Zürich|2|
23|Neuchâtel|Winterthur|9|
24|Olten|Schaffhausen|5|
25|Schaffhausen|Martigny|15|
26|Schaffhausen|St. Gallen|4|
27|Schaffhausen|Zug|3|
28|St. Gallen|Brusio|9|
29|Winterthur|Schwyz|3|
30|Zürich|Basel|4|
31|Zürich|Brusio|11|
32|Zürich|Lugano|9|
33|Zürich|Vaduz|6|
"""
# Country tickets: ``id|a|destination:points,...`` (a destination is a country).
SWITZERLAND_COUNTRY_TICKETS = """
34|Bern|France:5,Deutschland:6,Österreich:11,Italia:8
35|Chur|France:12,Deutschland:6,Österreich:3,Italia:5
36|Zürich|France:7,Deutschland:3,Österreich:7,Italia:11
37|Lugano|France:14,Deutschland:12,Österreich:13,Italia:2
38|France|Deutschland:5,Österreich:14,Italia:11
39|France|Deutschland:5,Österreich:14,Italia:11
40|Deutschland|France:5,Österreich:5,Italia:13
41|Deutschland|France:5,Österreich:5,Italia:13
42|Österreich|France:14,Deutschland:5,Italia:6
43|Österreich|France:14,Deutschland:5,Italia:6
44|Italia|France:11,Deutschland:13,Österreich:6
45|Italia|France:11,Deutschland:13,Österreich:6
"""


# Nordic Countries: routes (no tolls; the toll column stays empty) and tickets;
# route and ticket ids are the reference tables' numbers minus one. Two pairs
# have halves of different lengths (43/44 Kristiansand-Stavanger, 54/55 Mo I
# Rana-Trondheim). The tunnels and the ferries' locomotive spaces are locked by
# the lists below.
NORDIC_ROUTES = """
0|Ålborg|Århus|purple|1||
1|Ålborg|Göteborg|gray|2||
2|Ålborg|Kristiansand|red|2||
3|Ålborg|Oslo|white|3||
4|Århus|København|gray|1||
5|Åndalsnes|Bergen|black|5||
6|Åndalsnes|Lillehammer|yellow|2||
7|Åndalsnes|Trondheim|white|2||
8|Bergen|Oslo|blue|4|1|
9|Bergen|Oslo|red|4|1|
10|Bergen|Stavanger|purple|2||
11|Boden|Kiruna|black|3|2|
12|Boden|Kiruna|orange|3|2|
13|Boden|Tornio|green|1||
14|Boden|Umeå|red|3|3|
15|Boden|Umeå|white|3|3|
16|Göteborg|København|black|2||
17|Göteborg|Norrköping|gray|3||
18|Göteborg|Örebro|blue|2||
19|Göteborg|Oslo|orange|2||
20|Helsinki|Imatra|red|3||
21|Helsinki|Lahti|black|1||
22|Helsinki|Stockholm|gray|4|4|
23|Helsinki|Stockholm|yellow|4|4|
24|Helsinki|Tallinn|purple|2||
25|Helsinki|Tampere|orange|1||
26|Helsinki|Turku|white|1||
27|Honningsvåg|Kirkenes|green|2||
28|Honningsvåg|Tromsø|purple|4||
29|Imatra|Kuopio|purple|2||
30|Imatra|Lahti|yellow|2||
31|Kajaani|Kuopio|green|2||
32|Kajaani|Lieksa|blue|1||
33|Kajaani|Oulu|yellow|2||
34|Karlskrona|København|green|2|5|
35|Karlskrona|København|blue|2|5|
36|Karlskrona|Norrköping|yellow|3|6|
37|Karlskrona|Norrköping|white|3|6|
38|Kirkenes|Murmansk|white|3||
39|Kirkenes|Rovaniemi|blue|5||
40|Kiruna|Narvik|purple|1|7|
41|Kiruna|Narvik|white|1|7|
42|Kristiansand|Oslo|black|2||
43|Kristiansand|Stavanger|green|2|8|
44|Kristiansand|Stavanger|orange|3|8|
45|Kuopio|Lahti|white|3||
46|Kuopio|Lieksa|black|1||
47|Kuopio|Oulu|gray|3||
48|Kuopio|Vaasa|gray|4||
49|Lahti|Tampere|blue|1||
50|Lillehammer|Oslo|purple|2||
51|Lillehammer|Trondheim|orange|3||
52|Lieksa|Murmansk|gray|9||
53|Mo I Rana|Narvik|orange|4||
54|Mo I Rana|Trondheim|green|5|9|
55|Mo I Rana|Trondheim|red|6|9|
56|Narvik|Tromsø|yellow|3||
57|Norrköping|Örebro|gray|2||
58|Norrköping|Stockholm|red|1|10|
59|Norrköping|Stockholm|orange|1|10|
60|Oslo|Örebro|green|2|11|
61|Oslo|Örebro|yellow|2|11|
62|Oulu|Rovaniemi|orange|2||
63|Oulu|Tornio|white|1||
64|Oulu|Vaasa|black|3||
65|Örebro|Stockholm|black|2|12|
66|Örebro|Stockholm|purple|2|12|
67|Örebro|Sundsvall|orange|4||
68|Östersund|Sundsvall|green|2||
69|Östersund|Trondheim|black|2||
70|Rovaniemi|Tornio|red|1||
71|Stockholm|Tallinn|green|4||
72|Stockholm|Sundsvall|gray|4|13|
73|Stockholm|Sundsvall|gray|4|13|
74|Stockholm|Turku|blue|3||
75|Sundsvall|Umeå|yellow|3|14|
76|Sundsvall|Umeå|purple|3|14|
77|Sundsvall|Vaasa|blue|3||
78|Tampere|Turku|red|1||
79|Tampere|Vaasa|purple|2||
80|Vaasa|Umeå|gray|1||
"""
# Tunnels (the dark outline around the spaces).
NORDIC_TUNNEL_ROUTES = [6, 8, 9, 40, 41, 43, 50, 51, 54, 69]
# Ferries: route id -> locomotive spaces (30 in all, on 24 routes).
NORDIC_FERRY_LOCOMOTIVES = {
    1: 1,
    2: 1,
    3: 1,
    4: 1,
    5: 2,
    7: 1,
    10: 1,
    16: 1,
    22: 2,
    23: 1,
    24: 1,
    27: 1,
    28: 2,
    34: 1,
    35: 1,
    38: 1,
    44: 1,
    53: 2,
    55: 2,
    56: 1,
    71: 2,
    74: 1,
    77: 1,
    80: 1,
}
NORDIC_TICKETS = """
0|Ålborg|Norrköping|5|
1|Ålborg|Umeå|11|
2|Århus|Lillehammer|6|
3|Bergen|København|8|
4|Bergen|Narvik|16|
5|Bergen|Tornio|17|
6|Bergen|Trondheim|7|
7|Göteborg|Åndalsnes|6|
8|Göteborg|Oulu|12|
9|Göteborg|Turku|7|
10|Helsinki|Bergen|12|
11|Helsinki|Kirkenes|13|
12|Helsinki|Kiruna|10|
13|Helsinki|København|10|
14|Helsinki|Lieksa|5|
15|Helsinki|Östersund|8|
16|København|Murmansk|24|
17|København|Narvik|18|
18|København|Oulu|14|
19|Kristiansand|Mo I Rana|12|
20|Narvik|Murmansk|12|
21|Narvik|Tallinn|13|
22|Norrköping|Boden|11|
23|Örebro|Kuopio|10|
24|Oslo|Helsinki|8|
25|Oslo|Honningsvåg|21|
26|Oslo|København|4|
27|Oslo|Mo I Rana|10|
28|Oslo|Stavanger|4|
29|Oslo|Stockholm|4|
30|Oslo|Vaasa|9|
31|Stavanger|Karlskrona|8|
32|Stavanger|Rovaniemi|18|
33|Stockholm|Bergen|8|
34|Stockholm|Imatra|7|
35|Stockholm|Kajaani|10|
36|Stockholm|København|6|
37|Stockholm|Tromsø|17|
38|Stockholm|Umeå|7|
39|Sundsvall|Lahti|6|
40|Tampere|Boden|6|
41|Tampere|Kristiansand|10|
42|Tampere|Tallinn|3|
43|Tornio|Imatra|6|
44|Tromsø|Vaasa|11|
45|Turku|Trondheim|10|
"""


# ---------------------------------------------------------------------------
# Pennsylvania (issue 33).
# Ticket to Ride: Pennsylvania's facts, written into the tests to lock its map file.
#
# Transcribed from the reference tables of the printed game (Board Game Arena's
# data, checked against a second table and the board art), not read from
# ``maps/pennsylvania.toml``: a change to the map file must be matched here by
# hand. Same line formats as :mod:`tests.map_facts` — routes
# ``id|a|b|colour|length|pair|toll`` (the toll column stays empty), tickets
# ``id|a|b|points|neutral`` (the neutral column stays empty) — read with its
# helpers ``map_facts.routes`` and ``map_facts.tickets``.
#
# Route and ticket ids are the reference tables' numbers minus one. Ontario is a
# region of two ferry landings not joined to each other: "Ontario 1" (west, the
# Erie ferries) and "Ontario 2" (east, the Buffalo ferries); tickets name the
# region "Ontario".
#: The 34 cities (Ontario's two landings are in PENNSYLVANIA_REGIONS).
PENNSYLVANIA_CITIES = (
    *("Albany", "Allentown", "Altoona", "Atlantic City", "Baltimore", "Binghamton"),
    *("Buffalo", "Chambersburg", "Coudersport", "Cumberland", "Dubois", "Elmira", "Erie"),
    *("Gettysburg", "Harrisburg", "Johnstown", "Lancaster", "Lewiston", "Morgantown"),
    *("New York", "Oil City", "Philadelphia", "Pittsburgh", "Reading", "Rochester"),
    *("Scranton / Wilkes Barre", "Stroudsburg", "Syracuse", "Towanda", "Warren"),
    *("Wheeling", "Williamsport", "York", "Youngstown"),
)
#: The regions a ticket end may name -> their locations.
PENNSYLVANIA_REGIONS = {"Ontario": ("Ontario 1", "Ontario 2")}
#: Where each location is printed: fractions of the board image's width and
#: height (1744 x 1125 px) from its top-left corner.
PENNSYLVANIA_POSITIONS = {
    "Albany": (0.9725, 0.0916),
    "Allentown": (0.7838, 0.6631),
    "Altoona": (0.3607, 0.6827),
    "Atlantic City": (0.9673, 0.8916),
    "Baltimore": (0.6783, 0.9662),
    "Binghamton": (0.7385, 0.2258),
    "Buffalo": (0.3194, 0.0462),
    "Chambersburg": (0.4656, 0.8622),
    "Coudersport": (0.4226, 0.3156),
    "Cumberland": (0.3647, 0.9636),
    "Dubois": (0.3091, 0.5262),
    "Elmira": (0.5826, 0.2276),
    "Erie": (0.1187, 0.2258),
    "Gettysburg": (0.5373, 0.8987),
    "Harrisburg": (0.5808, 0.7502),
    "Johnstown": (0.3039, 0.7476),
    "Lancaster": (0.6714, 0.8276),
    "Lewiston": (0.4839, 0.6658),
    "Morgantown": (0.1388, 0.9698),
    "New York": (0.9731, 0.4969),
    "Oil City": (0.1726, 0.4347),
    "Ontario 1": (0.051, 0.0427),
    "Ontario 2": (0.2334, 0.0427),
    "Philadelphia": (0.8521, 0.8667),
    "Pittsburgh": (0.125, 0.7182),
    "Reading": (0.6909, 0.7262),
    "Rochester": (0.5367, 0.0462),
    "Scranton / Wilkes Barre": (0.7655, 0.4391),
    "Stroudsburg": (0.8572, 0.5547),
    "Syracuse": (0.7179, 0.0462),
    "Towanda": (0.6468, 0.3351),
    "Warren": (0.2494, 0.3129),
    "Wheeling": (0.0373, 0.8213),
    "Williamsport": (0.5591, 0.4889),
    "York": (0.6101, 0.856),
    "Youngstown": (0.0298, 0.4862),
}
#: The board's width ÷ height (1744 / 1125, rounded).
PENNSYLVANIA_ASPECT = 1.55
#: Other spellings a user may type -> the printed name.
PENNSYLVANIA_ALIASES = {
    "Pittsburg": "Pittsburgh",
    "Scranton": "Scranton / Wilkes Barre",
    "Wilkes-Barre": "Scranton / Wilkes Barre",
    "Scranton/Wilkes-Barre": "Scranton / Wilkes Barre",
    "Lewistown": "Lewiston",
    "Ontario West": "Ontario 1",
    "Ontario East": "Ontario 2",
}

PENNSYLVANIA_ROUTES = """
0|Albany|Binghamton|purple|6||
1|Albany|New York|blue|6|1|
2|Albany|New York|green|6|1|
3|Albany|Syracuse|white|6|2|
4|Albany|Syracuse|red|6|2|
5|Allentown|Philadelphia|black|3|3|
6|Allentown|Philadelphia|red|3|3|
7|Allentown|Reading|green|2||
8|Allentown|Scranton / Wilkes Barre|white|3|4|
9|Allentown|Scranton / Wilkes Barre|blue|3|4|
10|Allentown|Stroudsburg|orange|2||
11|Altoona|Dubois|gray|2||
12|Altoona|Harrisburg|red|5|5|
13|Altoona|Harrisburg|orange|5|5|
14|Altoona|Johnstown|yellow|1|6|
15|Altoona|Johnstown|blue|1|6|
16|Altoona|Lewiston|green|2||
17|Atlantic City|New York|black|6|7|
18|Atlantic City|New York|white|6|7|
19|Atlantic City|Philadelphia|gray|2|8|
20|Atlantic City|Philadelphia|gray|2|8|
21|Baltimore|Cumberland|blue|7||
22|Baltimore|Gettysburg|red|3||
23|Baltimore|Philadelphia|yellow|4|9|
24|Baltimore|Philadelphia|purple|4|9|
25|Baltimore|York|white|2||
26|Binghamton|Elmira|white|3||
27|Binghamton|Scranton / Wilkes Barre|black|3|10|
28|Binghamton|Scranton / Wilkes Barre|green|3|10|
29|Binghamton|Syracuse|yellow|2|11|
30|Binghamton|Syracuse|orange|2|11|
31|Binghamton|Towanda|red|2||
32|Buffalo|Coudersport|gray|4||
33|Buffalo|Erie|orange|5|12|
34|Buffalo|Erie|white|5|12|
35|Buffalo|Rochester|yellow|5|13|
36|Buffalo|Rochester|black|5|13|
37|Buffalo|Warren|green|4||
38|Buffalo|Ontario 2|gray|1|14|
39|Buffalo|Ontario 2|gray|1|14|
40|Chambersburg|Cumberland|green|2||
41|Chambersburg|Gettysburg|black|1||
42|Chambersburg|Harrisburg|blue|2||
43|Coudersport|Elmira|orange|4||
44|Coudersport|Warren|gray|4||
45|Coudersport|Williamsport|green|4||
46|Cumberland|Johnstown|gray|3||
47|Cumberland|Morgantown|red|5||
48|Dubois|Oil City|purple|3||
49|Dubois|Warren|black|3||
50|Dubois|Williamsport|white|6||
51|Elmira|Rochester|green|3||
52|Elmira|Syracuse|black|4||
53|Elmira|Towanda|yellow|2||
54|Erie|Oil City|black|3||
55|Erie|Warren|blue|3||
56|Erie|Youngstown|yellow|4|15|
57|Erie|Youngstown|green|4|15|
58|Erie|Ontario 1|gray|3|16|
59|Erie|Ontario 1|gray|3|16|
60|Gettysburg|Harrisburg|yellow|2||
61|Gettysburg|York|gray|1||
62|Harrisburg|Lewiston|gray|2||
63|Harrisburg|Reading|purple|2||
64|Harrisburg|Scranton / Wilkes Barre|gray|6||
65|Harrisburg|York|black|1||
66|Johnstown|Pittsburgh|purple|4|17|
67|Johnstown|Pittsburgh|black|4|17|
68|Lancaster|Philadelphia|green|4|18|
69|Lancaster|Philadelphia|orange|4|18|
70|Lancaster|Reading|yellow|1||
71|Lancaster|York|purple|1||
72|Lewiston|Williamsport|yellow|3||
73|Morgantown|Pittsburgh|yellow|3||
74|Morgantown|Wheeling|blue|3||
75|New York|Scranton / Wilkes Barre|red|5|19|
76|New York|Scranton / Wilkes Barre|purple|5|19|
77|Oil City|Pittsburgh|red|4||
78|Oil City|Warren|orange|2||
79|Oil City|Youngstown|white|3||
80|New York|Philadelphia|gray|6|20|
81|New York|Philadelphia|gray|6|20|
82|Pittsburgh|Wheeling|green|2|21|
83|Pittsburgh|Wheeling|white|2|21|
84|Pittsburgh|Youngstown|orange|4|22|
85|Pittsburgh|Youngstown|blue|4|22|
86|Harrisburg|Lancaster|gray|2|23|
87|Harrisburg|Lancaster|gray|2|23|
88|Rochester|Syracuse|purple|4|24|
89|Rochester|Syracuse|blue|4|24|
90|Scranton / Wilkes Barre|Stroudsburg|yellow|2||
91|Scranton / Wilkes Barre|Towanda|gray|3||
92|Scranton / Wilkes Barre|Williamsport|orange|5||
93|Towanda|Williamsport|black|2||
94|Wheeling|Youngstown|purple|5||
"""
#: ``id|companies``: the company logos each route shows, biggest company first
#: (empty on the 8 routes without a logo).
PENNSYLVANIA_ROUTE_COMPANIES = """
0|
1|PRR,B&O,NYC
2|PRR,B&O,NYC
3|NYC
4|NYC
5|PRR,RDG
6|PRR,RDG
7|RDG
8|PRR,RDG,LV,JCL
9|PRR,RDG,LV,JCL
10|RDG,LV,JCL
11|PRR
12|PRR
13|PRR
14|PRR
15|PRR
16|
17|JCL
18|JCL
19|PRR,RDG,JCL
20|PRR,RDG,JCL
21|B&O,WM
22|PRR,WM
23|PRR,B&O
24|PRR,B&O
25|PRR
26|EL
27|EL
28|EL
29|EL
30|EL
31|EL
32|PRR,EL
33|EL,NYC
34|EL,NYC
35|B&O,EL,LV,NYC,BR&P
36|B&O,EL,LV,NYC,BR&P
37|PRR,B&O,EL,BR&P
38|PRR,EL,NYC
39|PRR,EL,NYC
40|PRR,WM
41|
42|PRR,RDG,WM
43|PRR,B&O,EL,NYC,BR&P
44|PRR,B&O,EL,NYC,BR&P
45|PRR
46|PRR,B&O,WM
47|B&O,WM
48|
49|EL,BR&P
50|
51|PRR,B&O,EL,BR&P
52|EL,LV
53|PRR,EL,LV
54|PRR,EL,NYC
55|PRR,EL,NYC
56|EL,NYC
57|EL,NYC
58|PRR,EL,NYC
59|PRR,EL,NYC
60|PRR,RDG
61|
62|PRR
63|RDG
64|PRR,RDG
65|PRR,WM
66|PRR,B&O
67|PRR,B&O
68|PRR
69|PRR
70|RDG
71|PRR
72|PRR,RDG
73|
74|B&O
75|EL,LV,JCL
76|EL,LV,JCL
77|PRR,B&O
78|PRR,B&O,EL
79|EL
80|PRR,B&O,RDG,JCL
81|PRR,B&O,RDG,JCL
82|PRR
83|PRR
84|PRR,B&O,NYC
85|PRR,B&O,NYC
86|PRR
87|PRR
88|LV,NYC
89|LV,NYC
90|RDG,LV,JCL
91|PRR,EL,LV
92|
93|EL,RDG
94|PRR,B&O,NYC
"""
#: Ferries: route id -> locomotive spaces (the four Ontario routes).
PENNSYLVANIA_FERRY_LOCOMOTIVES = {38: 1, 39: 1, 58: 2, 59: 2}
PENNSYLVANIA_TICKETS = """
0|Altoona|Binghamton|9|
1|Baltimore|Albany|16|
2|Baltimore|New York|10|
3|Baltimore|Philadelphia|4|
4|Buffalo|Baltimore|16|
5|Buffalo|Harrisburg|13|
6|Buffalo|Johnstown|10|
7|Buffalo|New York|18|
8|Buffalo|Philadelphia|19|
9|Chambersburg|Scranton / Wilkes Barre|8|
10|Coudersport|Binghamton|7|
11|Cumberland|Harrisburg|4|
12|Dubois|Cumberland|6|
13|Dubois|Stroudsburg|12|
14|Erie|Albany|20|
15|Erie|Altoona|8|
16|Gettysburg|Reading|3|
17|Harrisburg|Baltimore|3|
18|Harrisburg|New York|11|
19|Harrisburg|Philadelphia|6|
20|Johnstown|Elmira|10|
21|Lewiston|Syracuse|9|
22|Morgantown|Chambersburg|7|
23|Morgantown|Williamsport|13|
24|New York|Atlantic City|6|
25|Oil City|Johnstown|6|
26|Oil City|Scranton / Wilkes Barre|14|
27|Ontario|Pittsburgh|10|
28|Ontario|Syracuse|10|
29|Ontario|Warren|5|
30|Philadelphia|Atlantic City|2|
31|Philadelphia|New York|6|
32|Pittsburgh|Harrisburg|9|
33|Pittsburgh|Baltimore|13|
34|Pittsburgh|Buffalo|10|
35|Pittsburgh|New York|20|
36|Pittsburgh|Philadelphia|15|
37|Rochester|Elmira|3|
38|Rochester|Reading|13|
39|Scranton / Wilkes Barre|Allentown|3|
40|Syracuse|Allentown|8|
41|Towanda|Lancaster|9|
42|Warren|York|10|
43|Wheeling|Albany|22|
44|Wheeling|Allentown|15|
45|Wheeling|Erie|9|
46|Williamsport|Albany|10|
47|Youngstown|Morgantown|7|
48|Youngstown|Rochester|14|
49|Youngstown|Scranton / Wilkes Barre|17|
"""
#: The stock shares: (id, name, shares, points by place, 1st first).
PENNSYLVANIA_COMPANIES = (
    ("PRR", "Pennsylvania Railroad", 15, (30, 21, 14, 9, 6)),
    ("B&O", "Baltimore & Ohio Railroad", 10, (20, 14, 9, 5, 2)),
    ("EL", "Erie Lackawanna Railway", 8, (16, 10, 5, 1)),
    ("RDG", "Reading Lines", 7, (15, 9, 5)),
    ("LV", "Lehigh Valley Railroad", 6, (12, 7, 3)),
    ("NYC", "New York Central System", 5, (10, 6, 3)),
    ("WM", "Western Maryland Railway", 4, (9, 5)),
    ("JCL", "Jersey Central Lines", 3, (8, 5)),
    ("BR&P", "Buffalo, Rochester & Pittsburgh Railway", 2, (7, 4)),
)
#: The Globetrotter's points (the most completed tickets).
PENNSYLVANIA_GLOBETROTTER = 15
#: Points of a claimed route, by length (7 -> 18 unverified).
PENNSYLVANIA_ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18}
#: Card colours, in the deck's order, 12 cards each, and 14 locomotives.
PENNSYLVANIA_COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
PENNSYLVANIA_CARDS_PER_COLOR = 12
PENNSYLVANIA_LOCOMOTIVES = 14
#: Players, trains, cards dealt, face-up cards, the final round's trigger.
PENNSYLVANIA_PLAYERS = (2, 5)
PENNSYLVANIA_TRAINS = 45
PENNSYLVANIA_STARTING_HAND = 4
PENNSYLVANIA_DISPLAY = 5
PENNSYLVANIA_END_TRIGGER = 2
#: Tickets: dealt at the start and kept at least; drawn later and kept at
#: least; where the ones not kept go (under the deck).
PENNSYLVANIA_START_TICKETS = (5, 3)
PENNSYLVANIA_DRAW_TICKETS = (4, 1)
PENNSYLVANIA_RETURNED = "bottom"
#: Both routes of a double pair are open from this many players on.
PENNSYLVANIA_BOTH_PAIR_ROUTES_MIN_PLAYERS = 4


def route_companies(table: str) -> dict[int, tuple[str, ...]]:
    """``PENNSYLVANIA_ROUTE_COMPANIES`` as ``{route id: company ids}`` (every
    route, ``()`` for none)."""
    rows: dict[int, tuple[str, ...]] = {}
    for line in table.strip().splitlines():
        ident, companies = line.split("|")
        rows[int(ident)] = tuple(companies.split(",")) if companies else ()
    return rows


# ---------------------------------------------------------------------------
# India (issue 33).
# Ticket to Ride: India (Map Collection 2), its facts written into the tests.
#
# Transcribed from the reference tables (``india.json``: Board Game Arena's data,
# which an independent JavaScript engine's tables match entry for entry), not
# from ``maps/india.toml``: a change to the map file must be matched here by
# hand. The table formats are ``map_facts``' (its ``routes`` and ``tickets`` read
# them): routes ``id|a|b|colour|length|pair|toll`` (the toll column stays empty:
# India has no tolls), tickets ``id|a|b|points|neutral route`` (neutral empty);
# locations ``name|aliases|x,y`` (aliases comma-separated, none: empty).
# Route and ticket ids are the reference tables' numbers minus one.
# The 39 cities: the real places' spellings as names; the other spellings the
# sources write (perhaps the board's misprints) and the modern names as aliases.
# Positions: Board Game Arena's pixels ÷ its upright board image (1125 x 1744).
INDIA_LOCATIONS = """
Agra||0.4222,0.3687
Ahmadabad||0.1947,0.4369
Ambala||0.4178,0.1726
Bareilly||0.5022,0.2569
Bezwada|Vijayawada|0.5227,0.6325
Bhatinda||0.2622,0.1749
Bhopal||0.4196,0.4295
Bilaspur||0.5698,0.4295
Bombay|Mumbai|0.2151,0.5734
Calcutta|Kolkata|0.8151,0.4461
Calicut|Kozhikode|0.3111,0.7873
Chittagong||0.9653,0.4318
Delhi||0.4036,0.2735
Dhubri||0.8613,0.3555
Erode||0.5191,0.7993
Guntakal||0.3822,0.6703
Indur|Nizamabad|0.5058,0.5361
Jacobabad||0.1067,0.195
Jaipur||0.3227,0.3526
Jorhat|Jarhat|0.9751,0.2982
Jodhpur||0.2098,0.3062
Karachi||0.0258,0.3492
Katni||0.5707,0.371
Khandwa||0.3111,0.4891
Lahore||0.2133,0.0791
Lucknow||0.544,0.3154
Madras|Chennai|0.5316,0.6972
Mangalore||0.288,0.7271
Manmad||0.3049,0.5482
Mormugao|Mormugau|0.2276,0.637
Patna||0.7164,0.3549
Peshawar||0.1156,0.0648
Poona|Pune|0.304,0.6067
Quilon|Kollam|0.3707,0.8796
Raipur||0.552,0.4885
Ratlam|Ratiam|0.28,0.406
Rohri||0.1627,0.2489
Wadi||0.3973,0.6095
Waltair|Visakhapatnam,Waltain|0.672,0.5917
"""
# The name taken -> the other spelling a source writes (kept as an alias):
# Jarhat, Ratiam, Mormugau (Board Game Arena), Waltain (the JavaScript engine's
# key and the wiki's trivia). The printed labels were not seen.
INDIA_MISPRINTS = {
    "Jorhat": "Jarhat",
    "Ratlam": "Ratiam",
    "Mormugao": "Mormugau",
    "Waltair": "Waltain",
}

# India: routes (no tolls; the toll column stays empty), in Board Game Arena's
# route order; 28 pairs. The ferries' locomotive spaces are locked by the dict below.
INDIA_ROUTES = """
0|Agra|Bhopal|purple|1|1|
1|Agra|Bhopal|red|1|1|
2|Agra|Delhi|orange|2||
3|Agra|Jaipur|blue|1|2|
4|Agra|Jaipur|white|1|2|
5|Agra|Katni|green|2||
6|Agra|Lucknow|gray|2||
7|Ahmadabad|Bombay|white|3||
8|Ahmadabad|Jodhpur|purple|3|3|
9|Ahmadabad|Jodhpur|black|3|3|
10|Ahmadabad|Khandwa|yellow|2||
11|Ahmadabad|Ratlam|green|1||
12|Ambala|Bareilly|orange|2||
13|Ambala|Bhatinda|white|2|4|
14|Ambala|Bhatinda|yellow|2|4|
15|Ambala|Delhi|gray|2|5|
16|Ambala|Delhi|gray|2|5|
17|Ambala|Lahore|black|4||
18|Bareilly|Delhi|white|1||
19|Bareilly|Lucknow|gray|1||
20|Bareilly|Patna|green|4||
21|Bezwada|Guntakal|blue|2||
22|Bezwada|Indur|green|2|6|
23|Bezwada|Indur|yellow|2|6|
24|Bezwada|Madras|red|1||
25|Bezwada|Waltair|orange|2|7|
26|Bezwada|Waltair|black|2|7|
27|Bhatinda|Delhi|blue|3||
28|Bhatinda|Jodhpur|green|3||
29|Bhatinda|Lahore|gray|2|8|
30|Bhatinda|Lahore|gray|2|8|
31|Bhatinda|Rohri|purple|2||
32|Bhopal|Bilaspur|gray|2|9|
33|Bhopal|Bilaspur|gray|2|9|
34|Bhopal|Khandwa|blue|2||
35|Bhopal|Ratlam|black|2||
36|Bilaspur|Calcutta|yellow|4||
37|Bilaspur|Katni|white|1|10|
38|Bilaspur|Katni|purple|1|10|
39|Bilaspur|Raipur|black|1|11|
40|Bilaspur|Raipur|red|1|11|
41|Bombay|Calicut|gray|6||
42|Bombay|Karachi|gray|6|12|
43|Bombay|Karachi|gray|6|12|
44|Bombay|Manmad|black|1||
45|Bombay|Mormugao|green|1||
46|Bombay|Poona|blue|1||
47|Calcutta|Chittagong|gray|2|13|
48|Calcutta|Chittagong|gray|2|13|
49|Calcutta|Dhubri|gray|2|14|
50|Calcutta|Dhubri|gray|2|14|
51|Calcutta|Madras|gray|8||
52|Calcutta|Patna|purple|2||
53|Calcutta|Raipur|blue|4||
54|Calcutta|Waltair|red|4||
55|Calicut|Erode|blue|3|15|
56|Calicut|Erode|red|3|15|
57|Calicut|Mangalore|white|1|16|
58|Calicut|Mangalore|yellow|1|16|
59|Calicut|Quilon|gray|2|17|
60|Calicut|Quilon|gray|2|17|
61|Chittagong|Dhubri|white|2||
62|Chittagong|Jorhat|gray|3||
63|Delhi|Jaipur|purple|2||
64|Delhi|Lucknow|yellow|2||
65|Dhubri|Jorhat|gray|2|18|
66|Dhubri|Jorhat|gray|2|18|
67|Dhubri|Patna|blue|2|19|
68|Dhubri|Patna|red|2|19|
69|Erode|Madras|green|2|20|
70|Erode|Madras|orange|2|20|
71|Erode|Quilon|gray|4||
72|Guntakal|Madras|white|2||
73|Guntakal|Mangalore|gray|2||
74|Guntakal|Mormugao|red|2||
75|Guntakal|Wadi|purple|1|21|
76|Guntakal|Wadi|black|1|21|
77|Indur|Manmad|purple|3||
78|Indur|Wadi|gray|2||
79|Jacobabad|Lahore|red|3||
80|Jacobabad|Karachi|white|4||
81|Jacobabad|Peshawar|orange|3|22|
82|Jacobabad|Peshawar|yellow|3|22|
83|Jacobabad|Rohri|blue|1|23|
84|Jacobabad|Rohri|green|1|23|
85|Jaipur|Jodhpur|red|2||
86|Jaipur|Ratlam|yellow|1|24|
87|Jaipur|Ratlam|orange|1|24|
88|Jodhpur|Karachi|orange|3||
89|Karachi|Rohri|black|3||
90|Katni|Lucknow|blue|1|25|
91|Katni|Lucknow|black|1|25|
92|Katni|Patna|gray|2|26|
93|Katni|Patna|gray|2|26|
94|Khandwa|Manmad|red|1||
95|Khandwa|Raipur|orange|4||
96|Khandwa|Ratlam|gray|2||
97|Lahore|Peshawar|green|1|27|
98|Lahore|Peshawar|purple|1|27|
99|Madras|Mangalore|purple|4||
100|Madras|Waltair|yellow|3||
101|Mangalore|Mormugao|black|2||
102|Manmad|Poona|gray|1||
103|Mormugao|Poona|gray|1||
104|Mormugao|Wadi|gray|2||
105|Poona|Wadi|orange|1||
106|Raipur|Waltair|green|3|28|
107|Raipur|Waltair|white|3|28|
"""
# Ferries (all gray): route id -> locomotive spaces (12 in all, on 8 routes).
INDIA_FERRY_LOCOMOTIVES = {
    41: 2,
    42: 2,
    43: 2,
    47: 1,
    48: 1,
    51: 2,
    59: 1,
    60: 1,
}
INDIA_TICKETS = """
0|Agra|Jorhat|8|
1|Ahmadabad|Calicut|7|
2|Ambala|Mormugao|10|
3|Ambala|Ratlam|5|
4|Ambala|Waltair|9|
5|Bareilly|Ahmadabad|5|
6|Bareilly|Calcutta|6|
7|Bareilly|Guntakal|10|
8|Bhatinda|Bezwada|13|
9|Bhatinda|Bilaspur|7|
10|Bhatinda|Manmad|9|
11|Bhopal|Calcutta|6|
12|Bhopal|Mormugao|5|
13|Bilaspur|Calicut|10|
14|Bilaspur|Dhubri|5|
15|Bombay|Bezwada|5|
16|Bombay|Quilon|6|
17|Calcutta|Erode|9|
18|Calcutta|Indur|8|
19|Chittagong|Wadi|11|
20|Delhi|Calicut|11|
21|Delhi|Chittagong|9|
22|Delhi|Indur|9|
23|Dhubri|Mangalore|12|
24|Jacobabad|Bombay|10|
25|Jacobabad|Calcutta|13|
26|Jacobabad|Ratlam|9|
27|Jaipur|Patna|5|
28|Jaipur|Poona|5|
29|Jaipur|Raipur|5|
30|Jorhat|Bombay|13|
31|Jodhpur|Guntakal|9|
32|Jodhpur|Khandwa|5|
33|Jodhpur|Lucknow|5|
34|Karachi|Ahmadabad|6|
35|Karachi|Delhi|7|
36|Karachi|Poona|7|
37|Katni|Khandwa|5|
38|Katni|Wadi|8|
39|Katni|Waltair|5|
40|Khandwa|Chittagong|10|
41|Lahore|Delhi|5|
42|Lahore|Dhubri|12|
43|Lahore|Wadi|13|
44|Lucknow|Bombay|7|
45|Lucknow|Erode|11|
46|Manmad|Erode|7|
47|Madras|Quilon|6|
48|Patna|Madras|9|
49|Patna|Mormugao|10|
50|Peshawar|Bhopal|9|
51|Peshawar|Madras|17|
52|Raipur|Guntakal|7|
53|Raipur|Manmad|5|
54|Ratlam|Bezwada|8|
55|Rohri|Agra|7|
56|Rohri|Mangalore|12|
57|Waltair|Mangalore|6|
"""

# Rule numbers (the rules text; Board Game Arena's settings).
INDIA_PLAYERS = (2, 4)
INDIA_CARS_PER_PLAYER = 45
INDIA_COLORS = {
    "purple": 12,
    "blue": 12,
    "orange": 12,
    "white": 12,
    "green": 12,
    "yellow": 12,
    "black": 12,
    "red": 12,
}
INDIA_WILDS = 14
INDIA_STARTING_HAND = 4
INDIA_DISPLAY_SIZE = 5
INDIA_MAX_FACE_UP_WILDS = 2
INDIA_END_TRIGGER_CARS = 2
# Tickets dealt at the start and kept at least; drawn later and kept at least.
INDIA_TICKET_DEAL = (4, 2)
INDIA_TICKET_DRAW = (3, 1)
# Where unkept tickets go, at the start and after a draw: under the deck.
INDIA_TICKETS_RETURNED = "bottom"
INDIA_ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
# Both routes of a double pair are open only from this many players.
INDIA_BOTH_PAIR_ROUTES_MIN_PLAYERS = 4
# The Grand Tour (Mandala): points for 1, 2, 3, 4 and 5 or more qualifying tickets.
INDIA_MANDALA_BONUS = (5, 10, 20, 30, 40)


def locations(table: str) -> list[tuple[str, tuple[str, ...], tuple[float, float]]]:
    """The rows of a location table: (name, aliases, (x, y))."""
    rows = []
    for line in table.strip().splitlines():
        name, aliases, pos = line.split("|")
        x, y = pos.split(",")
        rows.append((name, tuple(aliases.split(",")) if aliases else (), (float(x), float(y))))
    return rows
