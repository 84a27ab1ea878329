-- Hand-written: Norwegian postal codes (postnummer → poststed) for the main towns and every code the demo
-- data uses, spelled as Posten's postal-code register writes them (capitals). Street-address codes only (no
-- post-box-only codes). This is a curated subset, not the full register: an unknown code is not an invalid
-- one, so callers show the code alone when no row matches. Generated once and reviewed by hand.
-- Oslo
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('0150', 'OSLO'),
	('0151', 'OSLO'),
	('0152', 'OSLO'),
	('0153', 'OSLO'),
	('0154', 'OSLO'),
	('0155', 'OSLO'),
	('0157', 'OSLO'),
	('0158', 'OSLO'),
	('0159', 'OSLO'),
	('0160', 'OSLO'),
	('0161', 'OSLO'),
	('0162', 'OSLO'),
	('0164', 'OSLO'),
	('0165', 'OSLO'),
	('0166', 'OSLO'),
	('0167', 'OSLO'),
	('0168', 'OSLO'),
	('0169', 'OSLO'),
	('0170', 'OSLO'),
	('0171', 'OSLO'),
	('0172', 'OSLO'),
	('0173', 'OSLO'),
	('0174', 'OSLO'),
	('0175', 'OSLO'),
	('0176', 'OSLO'),
	('0177', 'OSLO'),
	('0178', 'OSLO'),
	('0179', 'OSLO'),
	('0180', 'OSLO'),
	('0181', 'OSLO'),
	('0182', 'OSLO'),
	('0183', 'OSLO'),
	('0184', 'OSLO'),
	('0185', 'OSLO'),
	('0186', 'OSLO'),
	('0187', 'OSLO'),
	('0188', 'OSLO'),
	('0190', 'OSLO'),
	('0191', 'OSLO'),
	('0192', 'OSLO'),
	('0193', 'OSLO'),
	('0194', 'OSLO'),
	('0195', 'OSLO'),
	('0196', 'OSLO'),
	('0250', 'OSLO'),
	('0251', 'OSLO'),
	('0252', 'OSLO'),
	('0253', 'OSLO'),
	('0254', 'OSLO'),
	('0255', 'OSLO'),
	('0256', 'OSLO'),
	('0257', 'OSLO'),
	('0258', 'OSLO'),
	('0259', 'OSLO'),
	('0260', 'OSLO'),
	('0262', 'OSLO'),
	('0263', 'OSLO'),
	('0264', 'OSLO'),
	('0265', 'OSLO'),
	('0266', 'OSLO'),
	('0267', 'OSLO'),
	('0268', 'OSLO'),
	('0350', 'OSLO'),
	('0351', 'OSLO'),
	('0352', 'OSLO'),
	('0353', 'OSLO'),
	('0354', 'OSLO'),
	('0355', 'OSLO'),
	('0356', 'OSLO'),
	('0357', 'OSLO'),
	('0358', 'OSLO'),
	('0359', 'OSLO'),
	('0360', 'OSLO'),
	('0361', 'OSLO'),
	('0362', 'OSLO'),
	('0363', 'OSLO'),
	('0364', 'OSLO'),
	('0365', 'OSLO'),
	('0366', 'OSLO'),
	('0367', 'OSLO'),
	('0368', 'OSLO'),
	('0369', 'OSLO'),
	('0370', 'OSLO'),
	('0550', 'OSLO'),
	('0551', 'OSLO'),
	('0552', 'OSLO'),
	('0553', 'OSLO'),
	('0554', 'OSLO'),
	('0555', 'OSLO'),
	('0556', 'OSLO'),
	('0557', 'OSLO'),
	('0558', 'OSLO'),
	('0559', 'OSLO'),
	('0560', 'OSLO'),
	('0561', 'OSLO'),
	('0562', 'OSLO'),
	('0563', 'OSLO'),
	('0564', 'OSLO'),
	('0565', 'OSLO'),
	('0566', 'OSLO'),
	('0567', 'OSLO'),
	('0568', 'OSLO'),
	('0569', 'OSLO'),
	('0570', 'OSLO'),
	('0655', 'OSLO'),
	('0661', 'OSLO'),
	('0667', 'OSLO'),
	('0752', 'OSLO'),
	('0870', 'OSLO'),
	('0956', 'OSLO'),
	('0979', 'OSLO'),
	('1055', 'OSLO'),
	('1166', 'OSLO'),
	('1255', 'OSLO');
--> statement-breakpoint
-- Bergen
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('5003', 'BERGEN'),
	('5004', 'BERGEN'),
	('5005', 'BERGEN'),
	('5006', 'BERGEN'),
	('5007', 'BERGEN'),
	('5008', 'BERGEN'),
	('5009', 'BERGEN'),
	('5010', 'BERGEN'),
	('5011', 'BERGEN'),
	('5012', 'BERGEN'),
	('5013', 'BERGEN'),
	('5014', 'BERGEN'),
	('5015', 'BERGEN'),
	('5016', 'BERGEN'),
	('5017', 'BERGEN'),
	('5018', 'BERGEN'),
	('5019', 'BERGEN'),
	('5031', 'BERGEN'),
	('5032', 'BERGEN'),
	('5033', 'BERGEN'),
	('5034', 'BERGEN'),
	('5035', 'BERGEN'),
	('5052', 'BERGEN'),
	('5053', 'BERGEN'),
	('5054', 'BERGEN'),
	('5055', 'BERGEN'),
	('5056', 'BERGEN'),
	('5057', 'BERGEN'),
	('5058', 'BERGEN'),
	('5059', 'BERGEN'),
	('5063', 'BERGEN'),
	('5089', 'BERGEN'),
	('5097', 'BERGEN'),
	('5111', 'BREISTEIN'),
	('5115', 'ULSET'),
	('5116', 'ULSET'),
	('5131', 'NYBORG'),
	('5141', 'FYLLINGSDALEN'),
	('5144', 'FYLLINGSDALEN'),
	('5160', 'LAKSEVÅG'),
	('5161', 'LAKSEVÅG'),
	('5171', 'LODDEFJORD'),
	('5173', 'LODDEFJORD'),
	('5221', 'NESTTUN'),
	('5222', 'NESTTUN'),
	('5224', 'NESTTUN'),
	('5230', 'PARADIS'),
	('5232', 'PARADIS'),
	('5243', 'FANA'),
	('5253', 'SANDSLI'),
	('5260', 'INDRE ARNA');
--> statement-breakpoint
-- Os
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('5200', 'OS');
--> statement-breakpoint
-- Trondheim
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7010', 'TRONDHEIM'),
	('7011', 'TRONDHEIM'),
	('7012', 'TRONDHEIM'),
	('7013', 'TRONDHEIM'),
	('7014', 'TRONDHEIM'),
	('7015', 'TRONDHEIM'),
	('7016', 'TRONDHEIM'),
	('7017', 'TRONDHEIM'),
	('7018', 'TRONDHEIM'),
	('7019', 'TRONDHEIM'),
	('7020', 'TRONDHEIM'),
	('7021', 'TRONDHEIM'),
	('7022', 'TRONDHEIM'),
	('7023', 'TRONDHEIM'),
	('7024', 'TRONDHEIM'),
	('7025', 'TRONDHEIM'),
	('7026', 'TRONDHEIM'),
	('7027', 'TRONDHEIM'),
	('7028', 'TRONDHEIM'),
	('7029', 'TRONDHEIM'),
	('7030', 'TRONDHEIM'),
	('7031', 'TRONDHEIM'),
	('7032', 'TRONDHEIM'),
	('7033', 'TRONDHEIM'),
	('7034', 'TRONDHEIM'),
	('7053', 'RANHEIM'),
	('7054', 'RANHEIM'),
	('7072', 'HEIMDAL'),
	('7075', 'TILLER'),
	('7078', 'SAUPSTAD'),
	('7079', 'FLATÅSEN'),
	('7080', 'HEIMDAL');
--> statement-breakpoint
-- Stavanger
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4005', 'STAVANGER'),
	('4006', 'STAVANGER'),
	('4007', 'STAVANGER'),
	('4008', 'STAVANGER'),
	('4009', 'STAVANGER'),
	('4010', 'STAVANGER'),
	('4011', 'STAVANGER'),
	('4012', 'STAVANGER'),
	('4013', 'STAVANGER'),
	('4014', 'STAVANGER'),
	('4015', 'STAVANGER'),
	('4016', 'STAVANGER'),
	('4017', 'STAVANGER'),
	('4018', 'STAVANGER'),
	('4019', 'STAVANGER'),
	('4020', 'STAVANGER'),
	('4021', 'STAVANGER'),
	('4022', 'STAVANGER'),
	('4023', 'STAVANGER'),
	('4024', 'STAVANGER'),
	('4041', 'HAFRSFJORD'),
	('4042', 'HAFRSFJORD'),
	('4043', 'HAFRSFJORD'),
	('4044', 'HAFRSFJORD'),
	('4077', 'HUNDVÅG');
--> statement-breakpoint
-- Sola
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4050', 'SOLA'),
	('4051', 'SOLA');
--> statement-breakpoint
-- Randaberg
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4070', 'RANDABERG');
--> statement-breakpoint
-- Sandnes
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4306', 'SANDNES'),
	('4307', 'SANDNES'),
	('4308', 'SANDNES'),
	('4309', 'SANDNES'),
	('4310', 'HOMMERSÅK'),
	('4312', 'SANDNES'),
	('4313', 'SANDNES'),
	('4314', 'SANDNES'),
	('4315', 'SANDNES'),
	('4316', 'SANDNES'),
	('4317', 'SANDNES'),
	('4318', 'SANDNES');
--> statement-breakpoint
-- Bryne
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4340', 'BRYNE');
--> statement-breakpoint
-- Egersund
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4370', 'EGERSUND');
--> statement-breakpoint
-- Tromsø
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9006', 'TROMSØ'),
	('9007', 'TROMSØ'),
	('9008', 'TROMSØ'),
	('9009', 'TROMSØ'),
	('9010', 'TROMSØ'),
	('9011', 'TROMSØ'),
	('9012', 'TROMSØ'),
	('9013', 'TROMSØ'),
	('9014', 'TROMSØ'),
	('9015', 'TROMSØ'),
	('9016', 'TROMSØ'),
	('9017', 'TROMSØ'),
	('9018', 'TROMSØ'),
	('9019', 'TROMSØ'),
	('9020', 'TROMSDALEN'),
	('9021', 'TROMSDALEN'),
	('9100', 'KVALØYSLETTA');
--> statement-breakpoint
-- Kristiansand
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4608', 'KRISTIANSAND S'),
	('4609', 'KARDEMOMME BY'),
	('4610', 'KRISTIANSAND S'),
	('4611', 'KRISTIANSAND S'),
	('4612', 'KRISTIANSAND S'),
	('4613', 'KRISTIANSAND S'),
	('4614', 'KRISTIANSAND S'),
	('4615', 'KRISTIANSAND S'),
	('4616', 'KRISTIANSAND S'),
	('4617', 'KRISTIANSAND S'),
	('4618', 'KRISTIANSAND S'),
	('4619', 'MOSBY'),
	('4620', 'KRISTIANSAND S'),
	('4621', 'KRISTIANSAND S'),
	('4622', 'KRISTIANSAND S'),
	('4623', 'KRISTIANSAND S'),
	('4624', 'KRISTIANSAND S'),
	('4625', 'FLEKKERØY'),
	('4626', 'KRISTIANSAND S'),
	('4630', 'KRISTIANSAND S'),
	('4631', 'KRISTIANSAND S'),
	('4632', 'KRISTIANSAND S');
--> statement-breakpoint
-- Vennesla
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4700', 'VENNESLA');
--> statement-breakpoint
-- Lillesand
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4790', 'LILLESAND');
--> statement-breakpoint
-- Mandal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4513', 'MANDAL'),
	('4514', 'MANDAL'),
	('4515', 'MANDAL'),
	('4516', 'MANDAL');
--> statement-breakpoint
-- Lyngdal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4580', 'LYNGDAL');
--> statement-breakpoint
-- Flekkefjord
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4400', 'FLEKKEFJORD');
--> statement-breakpoint
-- Arendal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4836', 'ARENDAL'),
	('4838', 'ARENDAL'),
	('4839', 'ARENDAL'),
	('4841', 'ARENDAL'),
	('4842', 'ARENDAL'),
	('4843', 'ARENDAL'),
	('4844', 'ARENDAL'),
	('4846', 'ARENDAL'),
	('4847', 'ARENDAL'),
	('4848', 'ARENDAL');
--> statement-breakpoint
-- Grimstad
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('4876', 'GRIMSTAD'),
	('4877', 'GRIMSTAD'),
	('4878', 'GRIMSTAD'),
	('4879', 'GRIMSTAD');
--> statement-breakpoint
-- Drammen
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3015', 'DRAMMEN'),
	('3016', 'DRAMMEN'),
	('3017', 'DRAMMEN'),
	('3018', 'DRAMMEN'),
	('3019', 'DRAMMEN'),
	('3021', 'DRAMMEN'),
	('3022', 'DRAMMEN'),
	('3023', 'DRAMMEN'),
	('3024', 'DRAMMEN'),
	('3025', 'DRAMMEN'),
	('3026', 'DRAMMEN'),
	('3027', 'DRAMMEN'),
	('3030', 'DRAMMEN'),
	('3031', 'DRAMMEN'),
	('3032', 'DRAMMEN'),
	('3033', 'DRAMMEN'),
	('3034', 'DRAMMEN'),
	('3035', 'DRAMMEN'),
	('3036', 'DRAMMEN');
--> statement-breakpoint
-- Lier
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3402', 'LIER'),
	('3403', 'LIER');
--> statement-breakpoint
-- Kongsberg
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3611', 'KONGSBERG'),
	('3612', 'KONGSBERG'),
	('3613', 'KONGSBERG'),
	('3614', 'KONGSBERG'),
	('3615', 'KONGSBERG'),
	('3616', 'KONGSBERG');
--> statement-breakpoint
-- Hønefoss
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3510', 'HØNEFOSS'),
	('3511', 'HØNEFOSS'),
	('3512', 'HØNEFOSS'),
	('3513', 'HØNEFOSS'),
	('3514', 'HØNEFOSS'),
	('3515', 'HØNEFOSS'),
	('3516', 'HØNEFOSS'),
	('3517', 'HØNEFOSS');
--> statement-breakpoint
-- Fredrikstad
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1604', 'FREDRIKSTAD'),
	('1605', 'FREDRIKSTAD'),
	('1606', 'FREDRIKSTAD'),
	('1607', 'FREDRIKSTAD'),
	('1608', 'FREDRIKSTAD'),
	('1610', 'FREDRIKSTAD'),
	('1613', 'FREDRIKSTAD'),
	('1614', 'FREDRIKSTAD'),
	('1615', 'FREDRIKSTAD'),
	('1617', 'FREDRIKSTAD'),
	('1618', 'FREDRIKSTAD'),
	('1619', 'FREDRIKSTAD'),
	('1624', 'GRESSVIK'),
	('1630', 'GAMLE FREDRIKSTAD'),
	('1632', 'GAMLE FREDRIKSTAD'),
	('1661', 'ROLVSØY'),
	('1671', 'KRÅKERØY');
--> statement-breakpoint
-- Sarpsborg
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1706', 'SARPSBORG'),
	('1707', 'SARPSBORG'),
	('1708', 'SARPSBORG'),
	('1709', 'SARPSBORG'),
	('1710', 'SARPSBORG'),
	('1711', 'SARPSBORG'),
	('1712', 'GRÅLUM'),
	('1718', 'GREÅKER'),
	('1721', 'SARPSBORG'),
	('1722', 'SARPSBORG'),
	('1723', 'SARPSBORG');
--> statement-breakpoint
-- Moss
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1511', 'MOSS'),
	('1512', 'MOSS'),
	('1513', 'MOSS'),
	('1514', 'MOSS'),
	('1530', 'MOSS'),
	('1531', 'MOSS'),
	('1532', 'MOSS');
--> statement-breakpoint
-- Halden
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1771', 'HALDEN'),
	('1772', 'HALDEN'),
	('1776', 'HALDEN'),
	('1777', 'HALDEN'),
	('1778', 'HALDEN'),
	('1781', 'HALDEN'),
	('1782', 'HALDEN'),
	('1783', 'HALDEN'),
	('1784', 'HALDEN');
--> statement-breakpoint
-- Bærum
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1337', 'SANDVIKA'),
	('1338', 'SANDVIKA'),
	('1344', 'HASLUM'),
	('1346', 'GJETTUM'),
	('1348', 'RYKKINN'),
	('1350', 'LOMMEDALEN'),
	('1352', 'KOLSÅS'),
	('1353', 'BÆRUMS VERK'),
	('1356', 'BEKKESTUA'),
	('1358', 'JAR'),
	('1360', 'FORNEBU'),
	('1361', 'ØSTERÅS'),
	('1363', 'HØVIK'),
	('1366', 'LYSAKER'),
	('1367', 'SNARØYA'),
	('1368', 'STABEKK'),
	('1369', 'STABEKK');
--> statement-breakpoint
-- Asker
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1383', 'ASKER'),
	('1384', 'ASKER'),
	('1385', 'ASKER'),
	('1386', 'ASKER'),
	('1387', 'ASKER'),
	('1389', 'HEGGEDAL'),
	('1390', 'VOLLEN'),
	('1394', 'NESBRU'),
	('1396', 'BILLINGSTAD');
--> statement-breakpoint
-- Nordre Follo
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1400', 'SKI'),
	('1406', 'SKI'),
	('1410', 'KOLBOTN'),
	('1412', 'SOFIEMYR'),
	('1415', 'OPPEGÅRD');
--> statement-breakpoint
-- Ås
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1430', 'ÅS');
--> statement-breakpoint
-- Frogn
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1440', 'DRØBAK');
--> statement-breakpoint
-- Nesodden
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1450', 'NESODDTANGEN');
--> statement-breakpoint
-- Lørenskog
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1470', 'LØRENSKOG'),
	('1472', 'FJELLHAMAR'),
	('1473', 'LØRENSKOG');
--> statement-breakpoint
-- Nittedal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('1482', 'NITTEDAL');
--> statement-breakpoint
-- Lillestrøm
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2000', 'LILLESTRØM'),
	('2004', 'LILLESTRØM'),
	('2007', 'KJELLER'),
	('2010', 'STRØMMEN'),
	('2013', 'SKJETTEN'),
	('2020', 'SKEDSMOKORSET');
--> statement-breakpoint
-- Ullensaker
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2040', 'KLØFTA'),
	('2050', 'JESSHEIM'),
	('2052', 'JESSHEIM'),
	('2053', 'JESSHEIM');
--> statement-breakpoint
-- Eidsvoll
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2080', 'EIDSVOLL');
--> statement-breakpoint
-- Kongsvinger
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2211', 'KONGSVINGER'),
	('2212', 'KONGSVINGER'),
	('2213', 'KONGSVINGER');
--> statement-breakpoint
-- Hamar
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2315', 'HAMAR'),
	('2316', 'HAMAR'),
	('2317', 'HAMAR'),
	('2318', 'HAMAR'),
	('2319', 'HAMAR'),
	('2321', 'HAMAR');
--> statement-breakpoint
-- Elverum
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2406', 'ELVERUM'),
	('2408', 'ELVERUM'),
	('2411', 'ELVERUM'),
	('2413', 'ELVERUM');
--> statement-breakpoint
-- Lillehammer
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2609', 'LILLEHAMMER'),
	('2613', 'LILLEHAMMER'),
	('2614', 'LILLEHAMMER'),
	('2615', 'LILLEHAMMER'),
	('2618', 'LILLEHAMMER'),
	('2619', 'LILLEHAMMER');
--> statement-breakpoint
-- Gjøvik
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('2815', 'GJØVIK'),
	('2816', 'GJØVIK'),
	('2817', 'GJØVIK'),
	('2818', 'GJØVIK'),
	('2821', 'GJØVIK');
--> statement-breakpoint
-- Tønsberg
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3110', 'TØNSBERG'),
	('3111', 'TØNSBERG'),
	('3112', 'TØNSBERG'),
	('3113', 'TØNSBERG'),
	('3114', 'TØNSBERG'),
	('3115', 'TØNSBERG'),
	('3116', 'TØNSBERG'),
	('3117', 'TØNSBERG'),
	('3118', 'TØNSBERG');
--> statement-breakpoint
-- Horten
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3181', 'HORTEN'),
	('3182', 'HORTEN'),
	('3183', 'HORTEN'),
	('3186', 'HORTEN'),
	('3187', 'HORTEN');
--> statement-breakpoint
-- Holmestrand
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3080', 'HOLMESTRAND');
--> statement-breakpoint
-- Sandefjord
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3210', 'SANDEFJORD'),
	('3211', 'SANDEFJORD'),
	('3212', 'SANDEFJORD'),
	('3213', 'SANDEFJORD'),
	('3214', 'SANDEFJORD'),
	('3215', 'SANDEFJORD'),
	('3216', 'SANDEFJORD');
--> statement-breakpoint
-- Larvik
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3256', 'LARVIK'),
	('3257', 'LARVIK'),
	('3258', 'LARVIK'),
	('3259', 'LARVIK'),
	('3260', 'LARVIK'),
	('3261', 'LARVIK'),
	('3262', 'LARVIK'),
	('3263', 'LARVIK'),
	('3264', 'LARVIK'),
	('3265', 'LARVIK'),
	('3290', 'STAVERN');
--> statement-breakpoint
-- Porsgrunn
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3910', 'PORSGRUNN'),
	('3911', 'PORSGRUNN'),
	('3912', 'PORSGRUNN'),
	('3913', 'PORSGRUNN'),
	('3914', 'PORSGRUNN'),
	('3915', 'PORSGRUNN'),
	('3950', 'BREVIK');
--> statement-breakpoint
-- Skien
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3715', 'SKIEN'),
	('3716', 'SKIEN'),
	('3717', 'SKIEN'),
	('3718', 'SKIEN'),
	('3719', 'SKIEN'),
	('3720', 'SKIEN'),
	('3721', 'SKIEN'),
	('3722', 'SKIEN'),
	('3723', 'SKIEN'),
	('3724', 'SKIEN');
--> statement-breakpoint
-- Notodden
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3674', 'NOTODDEN'),
	('3675', 'NOTODDEN'),
	('3676', 'NOTODDEN'),
	('3677', 'NOTODDEN'),
	('3678', 'NOTODDEN'),
	('3679', 'NOTODDEN');
--> statement-breakpoint
-- Kragerø
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('3770', 'KRAGERØ');
--> statement-breakpoint
-- Haugesund
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('5514', 'HAUGESUND'),
	('5515', 'HAUGESUND'),
	('5516', 'HAUGESUND'),
	('5517', 'HAUGESUND'),
	('5518', 'HAUGESUND'),
	('5519', 'HAUGESUND'),
	('5521', 'HAUGESUND'),
	('5522', 'HAUGESUND'),
	('5523', 'HAUGESUND');
--> statement-breakpoint
-- Stord
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('5411', 'STORD'),
	('5412', 'STORD'),
	('5414', 'STORD'),
	('5415', 'STORD'),
	('5416', 'STORD'),
	('5417', 'STORD');
--> statement-breakpoint
-- Voss
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('5700', 'VOSS'),
	('5704', 'VOSS');
--> statement-breakpoint
-- Odda
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('5750', 'ODDA');
--> statement-breakpoint
-- Ålesund
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6002', 'ÅLESUND'),
	('6003', 'ÅLESUND'),
	('6004', 'ÅLESUND'),
	('6005', 'ÅLESUND'),
	('6006', 'ÅLESUND'),
	('6007', 'ÅLESUND'),
	('6008', 'ÅLESUND'),
	('6009', 'ÅLESUND'),
	('6010', 'ÅLESUND'),
	('6011', 'ÅLESUND'),
	('6012', 'ÅLESUND');
--> statement-breakpoint
-- Volda
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6100', 'VOLDA');
--> statement-breakpoint
-- Ørsta
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6150', 'ØRSTA');
--> statement-breakpoint
-- Molde
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6410', 'MOLDE'),
	('6411', 'MOLDE'),
	('6412', 'MOLDE'),
	('6413', 'MOLDE'),
	('6414', 'MOLDE'),
	('6415', 'MOLDE'),
	('6416', 'MOLDE'),
	('6419', 'MOLDE'),
	('6421', 'MOLDE');
--> statement-breakpoint
-- Kristiansund
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6507', 'KRISTIANSUND N'),
	('6508', 'KRISTIANSUND N'),
	('6509', 'KRISTIANSUND N'),
	('6510', 'KRISTIANSUND N'),
	('6511', 'KRISTIANSUND N'),
	('6512', 'KRISTIANSUND N'),
	('6514', 'KRISTIANSUND N'),
	('6515', 'KRISTIANSUND N'),
	('6516', 'KRISTIANSUND N'),
	('6517', 'KRISTIANSUND N'),
	('6518', 'KRISTIANSUND N');
--> statement-breakpoint
-- Førde
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6800', 'FØRDE'),
	('6809', 'FØRDE'),
	('6810', 'FØRDE'),
	('6811', 'FØRDE'),
	('6812', 'FØRDE'),
	('6813', 'FØRDE'),
	('6814', 'FØRDE'),
	('6815', 'FØRDE');
--> statement-breakpoint
-- Florø
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6900', 'FLORØ');
--> statement-breakpoint
-- Sogndal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('6856', 'SOGNDAL');
--> statement-breakpoint
-- Stjørdal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7500', 'STJØRDAL'),
	('7502', 'STJØRDAL'),
	('7503', 'STJØRDAL'),
	('7504', 'STJØRDAL');
--> statement-breakpoint
-- Malvik
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7550', 'HOMMELVIK');
--> statement-breakpoint
-- Levanger
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7600', 'LEVANGER'),
	('7602', 'LEVANGER'),
	('7603', 'LEVANGER'),
	('7604', 'LEVANGER');
--> statement-breakpoint
-- Verdal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7650', 'VERDAL');
--> statement-breakpoint
-- Steinkjer
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7713', 'STEINKJER'),
	('7714', 'STEINKJER'),
	('7715', 'STEINKJER'),
	('7716', 'STEINKJER'),
	('7717', 'STEINKJER'),
	('7718', 'STEINKJER');
--> statement-breakpoint
-- Namsos
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7800', 'NAMSOS');
--> statement-breakpoint
-- Orkland
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7300', 'ORKANGER');
--> statement-breakpoint
-- Oppdal
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7340', 'OPPDAL');
--> statement-breakpoint
-- Røros
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7374', 'RØROS');
--> statement-breakpoint
-- Melhus
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('7224', 'MELHUS');
--> statement-breakpoint
-- Bodø
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8003', 'BODØ'),
	('8004', 'BODØ'),
	('8005', 'BODØ'),
	('8006', 'BODØ'),
	('8007', 'BODØ'),
	('8008', 'BODØ'),
	('8009', 'BODØ'),
	('8010', 'BODØ'),
	('8011', 'BODØ'),
	('8012', 'BODØ'),
	('8013', 'BODØ'),
	('8014', 'BODØ'),
	('8015', 'BODØ'),
	('8016', 'BODØ');
--> statement-breakpoint
-- Fauske
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8200', 'FAUSKE');
--> statement-breakpoint
-- Svolvær
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8300', 'SVOLVÆR');
--> statement-breakpoint
-- Leknes
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8370', 'LEKNES');
--> statement-breakpoint
-- Sortland
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8400', 'SORTLAND');
--> statement-breakpoint
-- Narvik
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8514', 'NARVIK'),
	('8515', 'NARVIK'),
	('8516', 'NARVIK'),
	('8517', 'NARVIK');
--> statement-breakpoint
-- Mo i Rana
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8610', 'MO I RANA'),
	('8613', 'MO I RANA'),
	('8614', 'MO I RANA'),
	('8622', 'MO I RANA');
--> statement-breakpoint
-- Mosjøen
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8656', 'MOSJØEN'),
	('8657', 'MOSJØEN'),
	('8658', 'MOSJØEN');
--> statement-breakpoint
-- Sandnessjøen
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8800', 'SANDNESSJØEN');
--> statement-breakpoint
-- Brønnøysund
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('8900', 'BRØNNØYSUND');
--> statement-breakpoint
-- Harstad
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9402', 'HARSTAD'),
	('9403', 'HARSTAD'),
	('9404', 'HARSTAD'),
	('9405', 'HARSTAD'),
	('9406', 'HARSTAD'),
	('9407', 'HARSTAD'),
	('9408', 'HARSTAD'),
	('9409', 'HARSTAD'),
	('9411', 'HARSTAD'),
	('9414', 'HARSTAD');
--> statement-breakpoint
-- Finnsnes
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9300', 'FINNSNES');
--> statement-breakpoint
-- Alta
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9510', 'ALTA'),
	('9511', 'ALTA'),
	('9512', 'ALTA'),
	('9513', 'ALTA'),
	('9514', 'ALTA'),
	('9515', 'ALTA'),
	('9516', 'ALTA'),
	('9517', 'ALTA'),
	('9518', 'ALTA');
--> statement-breakpoint
-- Hammerfest
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9600', 'HAMMERFEST'),
	('9601', 'HAMMERFEST'),
	('9602', 'HAMMERFEST'),
	('9603', 'HAMMERFEST');
--> statement-breakpoint
-- Vadsø
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9800', 'VADSØ');
--> statement-breakpoint
-- Kirkenes
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9900', 'KIRKENES');
--> statement-breakpoint
-- Vardø
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9950', 'VARDØ');
--> statement-breakpoint
-- Longyearbyen
INSERT INTO `postal_places` (`postal_code`, `place_name`) VALUES
	('9170', 'LONGYEARBYEN');
