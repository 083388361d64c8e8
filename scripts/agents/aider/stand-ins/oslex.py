import shlex

quote = shlex.quote
join = shlex.join
split = shlex.split
